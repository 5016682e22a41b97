import { expect } from 'vitest';
import { providerCapabilities } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { base64, fromBase64, text } from './expect-helpers';

/** How many pause/resume cycles the suite runs (issue 22: files lost on the second resume are a known platform failure). */
export const PAUSE_RESUME_CYCLES = 5;

/**
 * Pause and resume, again and again, through core: after each of K cycles every file written so
 * far (in nested directories, empty ones, and one written between the cycles) reads back with
 * its bytes, and nothing else appeared; where the pause checkpoint has a content manifest, the
 * resumed workspace's manifest equals it (a diff of the two is empty). Needs the `pause`
 * capability (skips saying so without it).
 */
export function pauseResumeCycleTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'pause and resume cycles', ({ harness, test }) => {
    test(`files survive ${PAUSE_RESUME_CYCLES} pause/resume cycles, each cycle's new file included`, async (context) => {
      const capable = providerCapabilities(harness.provider).pause;
      context.skip(!capable, `provider ${harness.provider.providerId} cannot pause (providerCapabilities), so this does not apply`);
      const service = harness.createService();
      const { runtime } = await service.open({ conversation_id: 'conformance', sender_id: 'cycles' });
      const id = runtime.runtime_id;
      const expected = new Map<string, string>([
        ['top.txt', 'top level'],
        ['nested/deeper/leaf.txt', 'a leaf\nwith two lines\n'],
        ['nested/sibling.bin', '\u0000\u0001\u00ff bytes'],
      ]);
      for (const [path, content] of expected) await service.writeFile({ runtime_id: id, path, content_base64: base64(content) });
      await service.mkdir({ runtime_id: id, path: 'empty/dir' });
      for (let cycle = 1; cycle <= PAUSE_RESUME_CYCLES; cycle += 1) {
        const paused = await service.pause({ runtime_id: id, name: `cycle ${cycle}` });
        expect((await service.get(id)).runtime.status).toBe('paused');
        await service.resume({ runtime_id: id });
        if ((await service.getCheckpoint(paused.checkpoint_id)).manifest_root) {
          const diff = await service.diff({ from_checkpoint_id: paused.checkpoint_id, to_runtime_id: id });
          expect(diff.entries, `the workspace resumed ${cycle} times against its pause checkpoint's manifest`).toEqual([]);
        }
        for (const [path, content] of expected) {
          const read = text(fromBase64((await service.readFile({ runtime_id: id, path })).content_base64));
          expect(read, `${path} after resume ${cycle}`).toBe(content);
        }
        expect((await service.stat({ runtime_id: id, path: 'empty/dir' })).kind, `empty/dir after resume ${cycle}`).toBe('directory');
        const path = `cycles/after-${cycle}.txt`;
        expected.set(path, `written after resume ${cycle}`);
        await service.writeFile({ runtime_id: id, path, content_base64: base64(expected.get(path)!) });
      }
      const listed = (await service.search({ runtime_id: id, glob: '**/*' })) as { paths: string[] };
      expect(listed.paths).toEqual(expect.arrayContaining([...expected.keys()]));
      for (const path of listed.paths.filter((listedPath) => !expected.has(listedPath))) {
        expect((await service.stat({ runtime_id: id, path })).kind, `${path}: nothing but the written files and their directories`).toBe('directory');
      }
      await service.close({ runtime_id: id });
    });
  });
}
