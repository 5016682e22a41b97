import { randomBytes } from 'node:crypto';

const CHECKOUT_SUFFIX = /:checkout:[0-9a-f]{32}$/;

/** Generates every id the control plane hands out. Injectable so tests can predict ids. */
export interface IdGenerator {
  /** `rt_<32hex>`, time-ordered. */
  runtimeId(): string;
  /** `rtcp_<32hex>`, time-ordered: id order is creation order. */
  checkpointId(): string;
  /** `bkd_<32hex>`. */
  backendId(): string;
  /** `bcp_<32hex>`. */
  backendCheckpointId(): string;
  /** `<root>:checkout:<32hex>` where root is `sourceRuntimeId` without its checkout suffix. */
  checkoutChildId(sourceRuntimeId: string): string;
}

/** The source id with any `:checkout:<hex>` suffix removed, so ids stay bounded however deep the tree. */
export function checkoutRoot(runtimeId: string): string {
  return runtimeId.replace(CHECKOUT_SUFFIX, '');
}

/**
 * Random bytes drawn from a pool refilled 4 KiB at a time: one system call per few hundred ids
 * instead of one per id (measured at ~7 µs each on the checkpoint hot path).
 */
const POOL_BYTES = 4096;
let pool = randomBytes(POOL_BYTES);
let poolOffset = 0;

function randomHex(bytes: number): string {
  if (poolOffset + bytes > POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}

/**
 * 32 lowercase hex digits that sort in creation order: 12 of milliseconds, 4 of a counter
 * within the millisecond, 16 random (the layout of a UUIDv7, without the version bits).
 */
export function timeOrderedHexFactory(clock: () => number = Date.now): () => string {
  let lastMs = 0;
  let counter = 0;
  return () => {
    let ms = clock();
    if (ms <= lastMs) {
      counter += 1;
      ms = lastMs;
      if (counter > 0xffff) {
        ms += 1;
        counter = 0;
      }
    } else {
      counter = 0;
    }
    lastMs = ms;
    return ms.toString(16).padStart(12, '0').slice(-12) + counter.toString(16).padStart(4, '0') + randomHex(8);
  };
}

export function createIdGenerator(clock: () => number = Date.now): IdGenerator {
  const timeOrdered = timeOrderedHexFactory(clock);
  return {
    runtimeId: () => `rt_${timeOrdered()}`,
    checkpointId: () => `rtcp_${timeOrdered()}`,
    backendId: () => `bkd_${randomHex(16)}`,
    backendCheckpointId: () => `bcp_${randomHex(16)}`,
    checkoutChildId: (source) => `${checkoutRoot(source)}:checkout:${randomHex(16)}`,
  };
}

/** `node_<16hex>`: a node id for a service given none (a daemon persists its own, so a restart keeps it). */
export function randomNodeId(): string {
  return `node_${randomHex(8)}`;
}
