import { useEffect } from 'preact/hooks';

/** Names the tab after the view, so history and screen readers tell views apart. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · runtimectl console`;
  }, [title]);
}
