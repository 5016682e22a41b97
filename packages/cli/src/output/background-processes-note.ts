import type { Colors } from './colors';

/**
 * The human line's note for a snapshot taken while the runtime's commands had processes running
 * (`background_processes` of a checkpoint, pause or fork answer): it holds what they had written
 * by then, not what they write after. Empty when none ran.
 */
export function backgroundProcessesNote(count: number | undefined, colors: Colors): string {
  if (!count) return '';
  const processes = count === 1 ? '1 background process was' : `${count} background processes were`;
  return colors.yellow(` (${processes} running: the snapshot holds what they had written by then)`);
}
