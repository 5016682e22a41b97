import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createFsProvider } from '../src/index';
import { useTemporaryDirectories } from './fs-fixture';

/**
 * Issue 39, as a property over real shell jobs on the fs provider (namespace isolation here):
 * random interleavings of exec (foreground, or a job left running that writes after a short
 * sleep), write-file, checkpoint and sleep. Whenever a checkpoint reports that it reused the last
 * snapshot, that snapshot's content must be the live workspace's at that moment — compared by
 * content manifest (`diff` of the checkpoint against the runtime, taken right after: with nothing
 * running, which reuse promises, nothing can change in between). And once the jobs have ended, the
 * runtime becomes clean again: reuse is not simply switched off. Lean: few runs, short sleeps.
 */

const FILES = ['a.txt', 'b.txt', 'dir/c.txt'] as const;

type Op =
  | { kind: 'exec'; file: number; text: string }
  | { kind: 'job'; file: number; text: string; afterMs: number }
  | { kind: 'write'; file: number; text: string }
  | { kind: 'checkpoint' }
  | { kind: 'sleep'; ms: number };

const file = fc.nat({ max: FILES.length - 1 });
const text = fc.stringMatching(/^[a-z]{1,8}$/);
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('exec' as const), file, text }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('job' as const), file, text, afterMs: fc.integer({ min: 20, max: 300 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('write' as const), file, text }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'checkpoint' as const }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('sleep' as const), ms: fc.integer({ min: 0, max: 400 }) }), weight: 3 },
);

const base64 = (value: string) => Buffer.from(value).toString('base64');
const seconds = (ms: number) => (ms / 1000).toFixed(3);
/** How long the end of a run waits for its jobs to end (a loaded machine delays `sleep`). */
const JOBS_END_WITHIN_MS = 20_000;

describe('background jobs and checkpoint reuse (property, fs provider, real shell)', () => {
  const temporary = useTemporaryDirectories();

  it('no checkpoint reports reuse while its content differs from the live workspace; once jobs end, reuse comes back', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 8 }), async (ops) => {
        const dir = await temporary('property');
        const provider = createFsProvider({ root: join(dir, 'workspaces'), snapshots: join(dir, 'snapshots') });
        const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [provider], defaultProvider: 'fs' });
        const { runtime } = await service.open({ conversation_id: 'property', sender_id: 'jobs' });
        const id = runtime.runtime_id;
        const checkpoint = async (what: string) => {
          const taken = await service.checkpoint({ runtime_id: id });
          if (taken.reused_backend_snapshot) {
            const diff = await service.diff({ from_checkpoint_id: taken.checkpoint_id, to_runtime_id: id });
            expect(diff.entries, `${what}: reported reuse, so its snapshot must be the live workspace`).toEqual([]);
          }
          return taken;
        };
        try {
          for (const [index, step] of ops.entries()) {
            const path = 'file' in step ? FILES[step.file]! : '';
            switch (step.kind) {
              case 'exec':
                await service.exec({ runtime_id: id, command: `mkdir -p dir && echo ${step.text} >> ${path}`, timeout_ms: 10_000 });
                break;
              case 'job':
                await service.exec({ runtime_id: id, command: `(sleep ${seconds(step.afterMs)}; mkdir -p dir; echo ${step.text} >> ${path}) >/dev/null 2>&1 &`, timeout_ms: 10_000 });
                break;
              case 'write':
                await service.writeFile({ runtime_id: id, path, content_base64: base64(`${step.text}\n`) });
                break;
              case 'checkpoint':
                await checkpoint(`step ${index}`);
                break;
              case 'sleep':
                await delay(step.ms);
                break;
            }
          }
          // Jobs end: a checkpoint finds nothing running (snapshotting once more), then the next reuses.
          const deadline = Date.now() + JOBS_END_WITHIN_MS;
          let last = await checkpoint('after the run');
          while (last.background_processes !== undefined && Date.now() < deadline) {
            await delay(50);
            last = await checkpoint('while the jobs end');
          }
          expect(last.background_processes, 'every job has ended').toBeUndefined();
          expect((await checkpoint('with nothing running and nothing changed')).reused_backend_snapshot).toBe(true);
        } finally {
          await service.close({ runtime_id: id });
        }
      }),
      { numRuns: 5, endOnFailure: true },
    );
  }, 180_000);
});
