import type { ComponentChildren } from 'preact';

/** A polite confirmation that an action went through (e.g. "Checked out as …"). */
export function StatusMessage({ children }: { children: ComponentChildren }) {
  if (children === null || children === undefined || children === false) return null;
  return (
    <div role="status" class="status-message">
      {children}
    </div>
  );
}
