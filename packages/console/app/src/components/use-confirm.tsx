import { useCallback, useRef, useState } from 'preact/hooks';
import { ConfirmDialog, type ConfirmRequest } from './confirm-dialog';

/** `await confirm({...})` from an event handler; render the returned dialog once in the view. */
export function useConfirm() {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const resolveRef = useRef<((confirmed: boolean) => void) | null>(null);

  const confirm = useCallback((next: ConfirmRequest) => {
    resolveRef.current?.(false);
    setRequest(next);
    return new Promise<boolean>((resolve) => {
      resolveRef.current = resolve;
    });
  }, []);

  const dialog = (
    <ConfirmDialog
      request={request}
      onAnswer={(confirmed) => {
        const resolve = resolveRef.current;
        resolveRef.current = null;
        setRequest(null);
        resolve?.(confirmed);
      }}
    />
  );
  return { confirm, dialog };
}
