/**
 * The operations the emulator counts, delays and can fail. Each served route belongs to
 * exactly one; the README lists which.
 */
export const EMULATOR_OPERATIONS = [
  'create',
  'connect',
  'kill',
  'pause',
  'get_info',
  'set_timeout',
  'list',
  'snapshot',
  'fork',
  'metrics',
  'list_snapshots',
  'delete_template',
  'files',
  'filesystem',
  'process',
  'health',
] as const;

export type EmulatorOperation = (typeof EMULATOR_OPERATIONS)[number];

export function isEmulatorOperation(value: string): value is EmulatorOperation {
  return (EMULATOR_OPERATIONS as readonly string[]).includes(value);
}
