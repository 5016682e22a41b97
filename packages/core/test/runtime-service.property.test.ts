import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RuntimectlError, type SessionRecord } from '@runtimectl/core';
import { createHarness, type Harness } from './harness';

/**
 * Random sequences of operations (and concurrent pairs) against the service over the memory
 * providers, checking the control plane's invariants after every step and a model of the
 * workspace files: a checkout or resume must restore exactly what its checkpoint captured.
 */

const PATHS = ['a.txt', 'b.txt', 'dir/c.txt'] as const;
type FileModel = Map<string, string>;

type Op =
  | { kind: 'open'; snapshots: boolean }
  | { kind: 'write'; runtime: number; path: number; text: string }
  | { kind: 'exec'; runtime: number; path: number; text: string }
  | { kind: 'checkpoint'; runtime: number }
  | { kind: 'checkout'; checkpoint: number }
  | { kind: 'pause'; runtime: number }
  | { kind: 'resume'; runtime: number }
  | { kind: 'close'; runtime: number; cascade: boolean; keep: boolean }
  | { kind: 'deleteSnapshot'; checkpoint: number };

type Step = Op | { kind: 'pair'; first: Op; second: Op };

const index = fc.nat({ max: 20 });
const text = fc.stringMatching(/^[a-z]{1,6}$/);
const controlOp: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('checkpoint' as const), runtime: index }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('checkout' as const), checkpoint: index }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('pause' as const), runtime: index }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('resume' as const), runtime: index }), weight: 3 },
  {
    arbitrary: fc.record({ kind: fc.constant('close' as const), runtime: index, cascade: fc.boolean(), keep: fc.boolean() }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('deleteSnapshot' as const), checkpoint: index }), weight: 1 },
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('open' as const), snapshots: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('write' as const), runtime: index, path: fc.nat({ max: 2 }), text }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('exec' as const), runtime: index, path: fc.nat({ max: 2 }), text }), weight: 2 },
  { arbitrary: controlOp, weight: 6 },
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: op, weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('pair' as const), first: op, second: controlOp }), weight: 1 },
);

/** Outcomes a well-behaved control plane may answer a random (valid-shaped) request with. */
const EXPECTED_REFUSALS = new Set([
  'runtime_paused',
  'runtime_not_paused',
  'runtime_closed',
  'snapshot_in_use',
  'checkpoint_snapshot_deleted',
  'unsupported_backend',
]);

class Model {
  readonly runtimes: string[] = [];
  readonly checkpoints: string[] = [];
  readonly files = new Map<string, FileModel>();
  readonly checkpointFiles = new Map<string, FileModel>();
  readonly wroteSinceCheckpoint = new Set<string>();

  constructor(readonly h: Harness) {}

  runtime(position: number): string | undefined {
    return this.runtimes.length === 0 ? undefined : this.runtimes[position % this.runtimes.length];
  }

  checkpoint(position: number): string | undefined {
    return this.checkpoints.length === 0 ? undefined : this.checkpoints[position % this.checkpoints.length];
  }

  /** Runs one operation; returns a function applying its effect to the model, or undefined when refused. */
  async run(operation: Op, concurrent: boolean): Promise<(() => Promise<void>) | undefined> {
    const { service } = this.h;
    try {
      return await this.#dispatch(operation, service);
    } catch (error) {
      const code = RuntimectlError.isInstance(error) ? error.code : undefined;
      if (code && (EXPECTED_REFUSALS.has(code) || (concurrent && code === 'session_busy'))) return undefined;
      throw error;
    }
  }

  async #dispatch(operation: Op, service: Harness['service']): Promise<(() => Promise<void>) | undefined> {
    switch (operation.kind) {
      case 'open': {
        const { runtime } = await service.open({
          conversation_id: 'c',
          sender_id: 's',
          provider: operation.snapshots ? 'memory' : 'nosnap',
        });
        return async () => {
          this.runtimes.push(runtime.runtime_id);
          this.files.set(runtime.runtime_id, new Map());
        };
      }
      case 'write':
      case 'exec': {
        const id = this.runtime(operation.runtime);
        if (!id) return undefined;
        const path = PATHS[operation.path]!;
        if (operation.kind === 'write') {
          await service.writeFile({ runtime_id: id, path, content_base64: Buffer.from(operation.text).toString('base64') });
        } else {
          await service.exec({ runtime_id: id, command: `write ${path} ${operation.text}` });
        }
        return async () => {
          this.files.get(id)!.set(path, operation.text);
          this.wroteSinceCheckpoint.add(id);
        };
      }
      case 'checkpoint': {
        const id = this.runtime(operation.runtime);
        if (!id) return undefined;
        const result = await service.checkpoint({ runtime_id: id });
        return async () => {
          // A checkpoint of a runtime that wrote since its last checkpoint never reuses the old snapshot.
          if (this.wroteSinceCheckpoint.has(id)) expect(result.reused_backend_snapshot).toBe(false);
          this.wroteSinceCheckpoint.delete(id);
          this.checkpoints.push(result.checkpoint_id);
          this.checkpointFiles.set(result.checkpoint_id, new Map(this.files.get(id)!));
        };
      }
      case 'checkout': {
        const checkpoint = this.checkpoint(operation.checkpoint);
        if (!checkpoint) return undefined;
        const { runtime } = await service.checkout({ checkpoint_id: checkpoint });
        return async () => {
          const expected = new Map(this.checkpointFiles.get(checkpoint)!);
          this.runtimes.push(runtime.runtime_id);
          this.files.set(runtime.runtime_id, expected);
          await this.#expectFiles(runtime.runtime_id, expected);
        };
      }
      case 'pause': {
        const id = this.runtime(operation.runtime);
        if (!id) return undefined;
        await service.pause({ runtime_id: id });
        return async () => {
          this.wroteSinceCheckpoint.delete(id);
        };
      }
      case 'resume': {
        const id = this.runtime(operation.runtime);
        if (!id) return undefined;
        await service.resume({ runtime_id: id });
        return () => this.#expectFiles(id, this.files.get(id)!);
      }
      case 'close': {
        const id = this.runtime(operation.runtime);
        if (!id) return undefined;
        await service.close({ runtime_id: id, cascade: operation.cascade, keep_snapshots: operation.keep });
        return async () => {};
      }
      case 'deleteSnapshot': {
        const checkpoint = this.checkpoint(operation.checkpoint);
        if (!checkpoint) return undefined;
        await service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint });
        return async () => {};
      }
    }
  }

  async #expectFiles(runtimeId: string, expected: FileModel): Promise<void> {
    // The other operation of a concurrent pair (a cascading close) may have closed it since.
    if ((await this.h.service.get(runtimeId)).runtime.status === 'closed') return;
    const { paths } = (await this.h.service.search({ runtime_id: runtimeId, glob: '**/*' })) as { paths: string[] };
    expect(paths).toEqual([...expected.keys()].sort());
    for (const [path, content] of expected) expect(await this.h.read(runtimeId, path)).toBe(content);
  }
}

async function allSessions(h: Harness): Promise<SessionRecord[]> {
  const sessions: SessionRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await h.store.listSessions({ limit: 100, ...(cursor ? { cursor } : {}) });
    sessions.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return sessions;
}

async function checkInvariants(h: Harness): Promise<void> {
  const sessions = await allSessions(h);
  const byId = new Map(sessions.map((session) => [session.runtimeId, session]));
  const live = new Set([...h.provider.liveBackendIds(), ...h.local.liveBackendIds()]);
  const snapshots = new Set(h.provider.snapshotIds());
  const bound = new Set(
    sessions.filter((s) => s.status !== 'closed' && s.backend).map((s) => `mem_${s.backend!.backendId}`),
  );
  // Every live backend is bound to at least one runtime, and no runtime is bound to a dead one.
  expect([...live].sort()).toEqual([...bound].sort());
  for (const session of sessions) {
    // A paused runtime has no live backend, and its resume point's snapshot still exists.
    if (session.status === 'paused') {
      expect(session.backend).toBeNull();
      const pause = await h.store.getCheckpoint(session.pausedCheckpointId!);
      expect(snapshots.has(pause!.backendRef!.providerSnapshotId!)).toBe(true);
    }
    // Runtime parent pointers form a forest.
    const seen = new Set<string>();
    for (let current: SessionRecord | undefined = session; current?.parentRuntimeId; current = byId.get(current.parentRuntimeId)) {
      expect(seen.has(current.runtimeId)).toBe(false);
      seen.add(current.runtimeId);
      expect(byId.has(current.parentRuntimeId)).toBe(true);
    }
    // Checkpoint records never point at a snapshot the provider no longer has; their parents form a forest.
    for (const checkpoint of (await h.store.listCheckpoints(session.runtimeId, { limit: 10_000 })).items) {
      const snapshotId = checkpoint.backendRef?.providerSnapshotId;
      if (snapshotId && checkpoint.backendRef?.providerId === 'memory') expect(snapshots.has(snapshotId)).toBe(true);
      let parent = checkpoint.parentCheckpointId;
      for (let hops = 0; parent; hops += 1) {
        expect(hops).toBeLessThan(10_000);
        parent = (await h.store.getCheckpoint(parent))!.parentCheckpointId;
      }
    }
  }
}

describe('RuntimeService under random operation sequences', () => {
  it('keeps every invariant, restores checkpointed files exactly, and leaks nothing once all is closed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 60, size: 'max' }), async (steps) => {
        const h = createHarness();
        const model = new Model(h);
        const opening: Step[] = [
          { kind: 'open', snapshots: true },
          { kind: 'open', snapshots: true },
          { kind: 'open', snapshots: false },
        ];
        for (const current of [...opening, ...steps]) {
          if (current.kind === 'pair') {
            // Both start at once; effects apply in completion order, which is execution order
            // because conflicting operations on one runtime never overlap (the lock).
            const effects: Array<() => Promise<void>> = [];
            const settle = (operation: Op) =>
              model.run(operation, true).then((effect) => {
                if (effect) effects.push(effect);
              });
            await Promise.all([settle(current.first), settle(current.second)]);
            for (const effect of effects) await effect();
          } else {
            const effect = await model.run(current, false);
            await effect?.();
          }
          await checkInvariants(h);
        }
        for (const id of model.runtimes) await h.service.close({ runtime_id: id, keep_snapshots: false });
        await checkInvariants(h);
        expect(h.provider.liveBackendIds()).toEqual([]);
        expect(h.local.liveBackendIds()).toEqual([]);
        expect(h.provider.snapshotIds()).toEqual([]);
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
