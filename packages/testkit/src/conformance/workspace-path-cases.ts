import { expect } from 'vitest';
import { providerCapabilities, type ProviderBackend } from '@runtimectl/core';
import type { ConformanceArea } from './conformance-area';
import { text, utf8 } from './expect-helpers';
import { resourceStrings } from './resource-strings';

const exec = { maxOutputBytes: 256 * 1024, timeoutMs: 20_000 };
const run = async (backend: ProviderBackend, command: string) => text((await backend.exec({ ...exec, command })).stdout);


/**
 * Isolation v2 — one workspace path (issue 31): commands see their workspace at
 * `workspaceRoot`, and a checkout sees it at the same path, so a path a command wrote down keeps
 * working; no backend id or resource name shows in `pwd`, the mount points or the cgroup path.
 */
export function workspacePathCases({ harness, test }: ConformanceArea, skipReason: string | undefined): void {
  test('commands see their workspace at workspaceRoot, and no backend id or resource name in pwd, mount points or cgroup path', async (context) => {
    context.skip(skipReason !== undefined, skipReason);
    const { backend, request } = await harness.createBackend();
    const seen = await run(backend, "pwd; cat /proc/self/cgroup 2>/dev/null; awk '{ print $5 }' /proc/self/mountinfo 2>/dev/null");
    expect(seen.split('\n')[0]).toBe(backend.workspaceRoot);
    for (const secret of [request.backendId, ...resourceStrings(request.resource)]) expect(seen, `what a command sees names ${secret}`).not.toContain(secret);
  });

  test('a checkout sees its workspace at the same path: a path a command wrote down before the checkpoint still works', async (context) => {
    context.skip(skipReason !== undefined, skipReason);
    const capabilities = providerCapabilities(harness.provider);
    context.skip(!capabilities.snapshot || !capabilities.checkout, 'needs checkpoint and checkout methods');
    const { backend, request } = await harness.createBackend();
    await backend.writeBytes('bin/tool', utf8('#!/bin/sh\necho tool ran\n'));
    const made = await backend.exec({ ...exec, command: 'chmod +x bin/tool && echo "$PWD/bin/tool" > run.sh && chmod +x run.sh' });
    expect(made.exitCode).toBe(0);
    const snapshot = await harness.provider.checkpoint!(backend, { labels: harness.snapshotLabels(request) });
    const { backend: child } = await harness.checkoutBackend(snapshot.snapshotId);
    expect(child.workspaceRoot).toBe(backend.workspaceRoot);
    expect(await run(child, './run.sh; pwd')).toBe(`tool ran\n${backend.workspaceRoot}\n`);
  });
}
