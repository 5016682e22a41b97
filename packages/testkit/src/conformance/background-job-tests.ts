import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'vitest';
import { providerCapabilities, type RuntimeService } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { base64, fromBase64, text } from './expect-helpers';

const NEEDS_POSIX_SHELL = 'needs capabilities.posixShell: a real POSIX shell whose background jobs (`&`) outlive their exec';

const CANNOT_COUNT = 'its backends cannot count background processes (backgroundProcesses is missing or does not answer): checkpoints never say how many ran';

/** How long a test waits for a background job's write to show in the live workspace (a loaded machine delays `sleep`). */
const JOB_WRITE_WITHIN_MS = 20_000;
/** The repeating job of the second case: this many lines, one every LINE_EVERY_SECONDS. */
const LINES = 12;
const LINE_EVERY_SECONDS = '0.25';

/**
 * Background jobs through core: a job an exec leaves running keeps writing after the exec
 * returned, with no API call a dirty tracker could see. A checkpoint must never miss what such a
 * job wrote before it was taken — so it must not reuse an earlier snapshot while the job may have
 * written since — and its answer says (`background_processes`) when jobs were running. Content is
 * read back through the checkpoint where the provider can (read-file by `checkpoint_id`, else
 * checkout); otherwise (no snapshots) through its content manifest against the live workspace.
 * Needs `capabilities.posixShell`.
 */
export function backgroundJobTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'background jobs', ({ harness, test, options: resolved }) => {
    /** The content of `path` as checkpoint `checkpointId` holds it; undefined when the provider cannot show it. */
    async function contentAt(service: RuntimeService, checkpointId: string, path: string): Promise<string | undefined> {
      if (harness.provider.readSnapshotFile) {
        return text(fromBase64((await service.readFile({ checkpoint_id: checkpointId, path })).content_base64));
      }
      if (!providerCapabilities(harness.provider).checkout) return undefined;
      const { runtime } = await service.checkout({ checkpoint_id: checkpointId });
      try {
        return text(fromBase64((await service.readFile({ runtime_id: runtime.runtime_id, path })).content_base64));
      } finally {
        await service.close({ runtime_id: runtime.runtime_id });
      }
    }

    async function liveContent(service: RuntimeService, runtimeId: string, path: string): Promise<string> {
      if (!(await service.stat({ runtime_id: runtimeId, path })).exists) return '';
      return text(fromBase64((await service.readFile({ runtime_id: runtimeId, path })).content_base64));
    }

    /** Polls (reads only: nothing a dirty tracker sees) until `path` in the live workspace satisfies `done`. */
    async function waitForLive(service: RuntimeService, runtimeId: string, path: string, done: (content: string) => boolean): Promise<string> {
      const deadline = Date.now() + JOB_WRITE_WITHIN_MS;
      for (;;) {
        const content = await liveContent(service, runtimeId, path);
        if (done(content)) return content;
        if (Date.now() > deadline) throw new Error(`${path} did not reach the expected content within ${JOB_WRITE_WITHIN_MS} ms: ${JSON.stringify(content)}`);
        await delay(100);
      }
    }

    /** Where the checkpoint has a manifest: it equals the live workspace's (only meaningful while nothing runs). */
    async function expectSameAsLive(service: RuntimeService, checkpointId: string, runtimeId: string, what: string): Promise<void> {
      if (!(await service.getCheckpoint(checkpointId)).manifest_root) return;
      const diff = await service.diff({ from_checkpoint_id: checkpointId, to_runtime_id: runtimeId });
      expect(diff.entries, `${what}: the checkpoint's manifest against the live workspace`).toEqual([]);
    }

    async function openRuntime(service: RuntimeService, sender: string): Promise<string> {
      const { runtime } = await service.open({ conversation_id: 'conformance', sender_id: sender });
      return runtime.runtime_id;
    }

    test('a checkpoint after a background job wrote holds what it wrote (the job outlived the exec that started it)', async (context) => {
      context.skip(!resolved.capabilities.posixShell, NEEDS_POSIX_SHELL);
      const service = harness.createService();
      const id = await openRuntime(service, 'late-writer');
      const started = await service.exec({ runtime_id: id, command: '(sleep 2; echo late > late.txt) > /dev/null 2>&1 &' });
      expect(started.exit_code).toBe(0);
      const first = await service.checkpoint({ runtime_id: id });
      expect(first.reused_backend_snapshot).toBe(false);
      // The reproduction: time passes, no API call; then reads only, until the job wrote.
      await delay(4_000);
      await waitForLive(service, id, 'late.txt', (content) => content === 'late\n');
      const second = await service.checkpoint({ runtime_id: id });
      expect(second.reused_backend_snapshot, 'a checkpoint after a background job wrote must not reuse the earlier snapshot').toBe(false);
      const held = await contentAt(service, second.checkpoint_id, 'late.txt');
      if (held !== undefined) expect(held).toBe('late\n');
      await expectSameAsLive(service, second.checkpoint_id, id, 'the second checkpoint');
    });

    test('checkpoints taken while a job keeps writing each hold everything written before them', async (context) => {
      context.skip(!resolved.capabilities.posixShell, NEEDS_POSIX_SHELL);
      const service = harness.createService();
      const id = await openRuntime(service, 'steady-writer');
      const job = `i=0; while [ $i -lt ${LINES} ]; do i=$((i+1)); echo "line $i" >> log.txt; sleep ${LINE_EVERY_SECONDS}; done`;
      await service.exec({ runtime_id: id, command: `(${job}) > /dev/null 2>&1 &` });
      const full = Array.from({ length: LINES }, (_, index) => `line ${index + 1}\n`).join('');
      let previousLines = 0;
      for (let round = 1; round <= 3; round += 1) {
        // A new line since the previous checkpoint: the job wrote between two checkpoints.
        const before = await waitForLive(service, id, 'log.txt', (content) => content.split('\n').length - 1 > previousLines);
        previousLines = before.split('\n').length - 1;
        const checkpoint = await service.checkpoint({ runtime_id: id });
        expect(checkpoint.reused_backend_snapshot, `checkpoint ${round}, taken while the job writes`).toBe(false);
        const held = await contentAt(service, checkpoint.checkpoint_id, 'log.txt');
        if (held === undefined) continue;
        expect(held.startsWith(before), `checkpoint ${round} holds every line written before it (${previousLines})`).toBe(true);
        expect(full.startsWith(held), `checkpoint ${round} holds only what the job wrote`).toBe(true);
      }
      await waitForLive(service, id, 'log.txt', (content) => content === full);
      // Nothing runs any more once the job wrote its last line and exited: a checkpoint then holds
      // the whole log, and one after it (nothing changed) may reuse it.
      let last = await service.checkpoint({ runtime_id: id });
      for (let attempt = 0; last.background_processes !== undefined && attempt < 50; attempt += 1) {
        await delay(100);
        last = await service.checkpoint({ runtime_id: id });
      }
      expect(last.background_processes, 'the job has ended').toBeUndefined();
      const held = await contentAt(service, last.checkpoint_id, 'log.txt');
      if (held !== undefined) expect(held).toBe(full);
      await expectSameAsLive(service, last.checkpoint_id, id, 'the checkpoint after the job ended');
      const again = await service.checkpoint({ runtime_id: id });
      await expectSameAsLive(service, again.checkpoint_id, id, 'the next checkpoint');
    });

    test('a checkpoint answer says how many background processes ran while it was taken, and only then', async (context) => {
      context.skip(!resolved.capabilities.posixShell, NEEDS_POSIX_SHELL);
      context.skip(!(await harness.confirmsQuietBackends()), CANNOT_COUNT);
      const service = harness.createService();
      const id = await openRuntime(service, 'counted');
      await service.writeFile({ runtime_id: id, path: 'seed.txt', content_base64: base64('seed') });
      const quiet = await service.checkpoint({ runtime_id: id });
      expect(quiet.background_processes).toBeUndefined();
      await service.exec({ runtime_id: id, command: '(sleep 30) > /dev/null 2>&1 & (sleep 30) > /dev/null 2>&1 &' });
      const busy = await service.checkpoint({ runtime_id: id });
      expect(busy.reused_backend_snapshot).toBe(false);
      expect(busy.background_processes ?? 0, 'two jobs run while it is taken').toBeGreaterThanOrEqual(2);
      const stillBusy = await service.checkpoint({ runtime_id: id });
      expect(stillBusy.reused_backend_snapshot, 'the jobs still run: the runtime stays dirty').toBe(false);
    });

    test('a child checked out from a checkpoint taken while a job ran is not taken as clean', async (context) => {
      context.skip(!resolved.capabilities.posixShell, NEEDS_POSIX_SHELL);
      context.skip(!providerCapabilities(harness.provider).checkout, `provider ${harness.provider.providerId} cannot check out, so this does not apply`);
      const service = harness.createService();
      const id = await openRuntime(service, 'busy-source');
      await service.exec({ runtime_id: id, command: '(sleep 30) > /dev/null 2>&1 &' });
      const busy = await service.checkpoint({ runtime_id: id });
      const { runtime: child } = await service.checkout({ checkpoint_id: busy.checkpoint_id });
      // A memory snapshot (E2B) restores the job running: the child's workspace may change without an API call.
      const first = await service.checkpoint({ runtime_id: child.runtime_id });
      expect(first.reused_backend_snapshot, "the child's first checkpoint makes its own snapshot").toBe(false);
      await service.close({ runtime_id: child.runtime_id });
    });

    test('pause while a job runs says so; the resumed runtime is not taken as clean', async (context) => {
      context.skip(!resolved.capabilities.posixShell, NEEDS_POSIX_SHELL);
      context.skip(!providerCapabilities(harness.provider).pause, `provider ${harness.provider.providerId} cannot pause, so this does not apply`);
      const service = harness.createService();
      const id = await openRuntime(service, 'busy-pause');
      await service.exec({ runtime_id: id, command: '(sleep 30) > /dev/null 2>&1 &' });
      const paused = await service.pause({ runtime_id: id });
      if (await harness.confirmsQuietBackends()) {
        expect(paused.background_processes ?? 0, 'the pause snapshot was taken while the job ran').toBeGreaterThanOrEqual(1);
      }
      await service.resume({ runtime_id: id });
      const first = await service.checkpoint({ runtime_id: id });
      expect(first.reused_backend_snapshot, 'the resumed runtime makes its own snapshot').toBe(false);
    });
  });
}
