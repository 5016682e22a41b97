import type { LeaseMode } from './fleet-store';

/**
 * Why a lease in `mode` cannot be granted while the runtime's unexpired leases have `held`
 * modes, or undefined when it can. The one conflict matrix of the fleet (every store uses it, so
 * `session_busy` says the same whichever store answers): data operations (shared) coexist;
 * a control operation (exclusive) excludes everything; a checkout of the runtime's checkpoint
 * needs no operation in flight when it arrives, then only keeps control operations away.
 */
export function leaseConflict(held: readonly LeaseMode[], mode: LeaseMode): string | undefined {
  if (held.includes('exclusive')) return 'a control operation is in flight';
  if (mode === 'shared') return undefined;
  if (held.includes('shared')) return 'an operation is in flight';
  if (mode === 'exclusive' && held.includes('checkout')) return 'a checkout of its checkpoint is in flight';
  return undefined;
}
