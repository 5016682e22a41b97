/** A runtime's status as text with a coloured marker: colour repeats the word, never replaces it. */
export function RuntimeStatus({ status }: { status: string }) {
  const known = ['idle', 'running', 'paused', 'closed', 'failed'].includes(status) ? status : 'other';
  return <span class={`runtime-status runtime-status-${known}`}>{status}</span>;
}
