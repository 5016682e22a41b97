import { MemoryRuntimeStore, type NewRuntimeEvent, type RuntimeStore } from '@runtimectl/core';
import { WebhookEngine, type WebhookEngineOptions, type WebhookSettings } from '../src/index';

export const SECRET = 'whsec_fixture_0123456789abcdef';

/** A clock tests move by hand, and a sleeper that moves it instead of waiting: no test sleeps. */
export function fakeTime(startMs = 1_800_000_000_000) {
  const time = { nowMs: startMs, slept: [] as number[] };
  return {
    time,
    clock: () => time.nowMs,
    sleep: async (ms: number) => {
      time.slept.push(ms);
      time.nowMs += ms;
    },
  };
}

export function webhook(url: string, overrides: Partial<WebhookSettings> = {}): WebhookSettings {
  return { id: 'hook-1', url, secret: SECRET, maxAttempts: 5, baseBackoffMs: 1_000, maxBackoffMs: 60_000, timeoutMs: 5_000, ...overrides };
}

export function event(runtimeId: string, type: NewRuntimeEvent['type'] = 'runtime.opened', atMs = 1_800_000_000_000): NewRuntimeEvent {
  return { type, atMs, runtimeId, checkpointId: null, data: {} };
}

/** A store whose lease clock the test moves (to let a dead holder's lease lapse), and engines on it. */
export function engineWorld() {
  const time = fakeTime();
  const store: RuntimeStore = new MemoryRuntimeStore({ clock: time.clock });
  const engine = (webhooks: WebhookSettings[], overrides: Partial<WebhookEngineOptions> = {}) =>
    new WebhookEngine({ store, webhooks, nodeId: 'node-a', leaseMs: 15_000, clock: time.clock, sleep: time.sleep, random: () => 1, ...overrides });
  return { ...time, store, engine };
}
