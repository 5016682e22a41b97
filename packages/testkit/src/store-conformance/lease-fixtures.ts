import type { LeaseGrant, LeaseMode, LeaseRequest, RuntimeFence, RuntimeStore } from '@runtimectl/core';

/** A lease that outlives any test. */
export const LONG_TTL_MS = 60_000;
/** A lease meant to lapse during the test: short, so the test polls for its end instead of sleeping long. */
export const SHORT_TTL_MS = 200;
/**
 * The first TTL of a lease a test renews: long enough for the renewal to come before it ends on a
 * busy machine, short enough to wait out.
 */
export const RENEWED_TTL_MS = 600;
/** How long a test polls for a short lease to lapse before it fails. */
const LAPSE_DEADLINE_MS = 10_000;

export const LEASE_MODES: readonly LeaseMode[] = ['shared', 'checkout', 'exclusive'];

export const leaseRequest = (runtimeId: string, mode: LeaseMode, overrides: Partial<LeaseRequest> = {}): LeaseRequest => ({
  runtimeId,
  holderId: 'node-a',
  mode,
  ttlMs: LONG_TTL_MS,
  ...overrides,
});

/** The fence of a grant, failing the test when the lease was not granted. */
export function fenceOf(grant: LeaseGrant): RuntimeFence {
  if (!grant.granted) throw new Error(`expected the lease to be granted, it conflicted: ${grant.conflict}`);
  return grant.fence;
}

/** Acquires a lease that must be granted. */
export async function granted(store: RuntimeStore, request: LeaseRequest): Promise<RuntimeFence> {
  return fenceOf(await store.acquireLease(request));
}

/** Polls `condition` until it holds; fails after LAPSE_DEADLINE_MS. No fixed sleep decides the outcome. */
export async function eventually(what: string, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + LAPSE_DEADLINE_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: still not so after ${LAPSE_DEADLINE_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until `runtimeId` has no unexpired shared or exclusive lease (its lease lapsed). */
export function lapsed(store: RuntimeStore, runtimeId: string): Promise<void> {
  return eventually(`the lease of ${runtimeId} lapses`, async () => !(await store.listBusyRuntimeIds()).includes(runtimeId));
}
