import { useEffect, useId, useRef } from 'preact/hooks';

export interface ConfirmRequest {
  title: string;
  /** What will happen, in plain words. */
  text: string;
  /** The confirm button's name, after the action ("Delete snapshot", "Close runtime"). */
  confirmLabel: string;
}

interface ConfirmDialogProps {
  request: ConfirmRequest | null;
  onAnswer(confirmed: boolean): void;
}

/**
 * A modal confirmation for destructive actions: a native `<dialog>` opened with showModal(), so
 * focus is trapped and Escape cancels; focus goes back to the control that opened it.
 */
export function ConfirmDialog({ request, onAnswer }: ConfirmDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<Element | null>(null);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (request && !dialog.open) {
      openerRef.current = document.activeElement;
      dialog.showModal();
    } else if (!request && dialog.open) {
      dialog.close();
    }
  }, [request]);

  function answer(confirmed: boolean) {
    dialogRef.current?.close();
    const opener = openerRef.current;
    onAnswer(confirmed);
    if (opener instanceof HTMLElement || opener instanceof SVGElement) opener.focus();
  }

  return (
    <dialog
      ref={dialogRef}
      class="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        answer(false);
      }}
    >
      <h2 id={titleId}>{request?.title ?? ''}</h2>
      <p id={textId}>{request?.text ?? ''}</p>
      <div class="button-row">
        <button type="button" onClick={() => answer(false)}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={() => answer(true)}>
          {request?.confirmLabel ?? 'Confirm'}
        </button>
      </div>
    </dialog>
  );
}
