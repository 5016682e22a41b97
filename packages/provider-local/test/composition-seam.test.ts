import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackendGoneError } from '@runtimectl/core';
import { createBackend, localProvider, useTemporaryDirectories } from './local-fixture';

// What a provider that composes the local one (provider-fs) needs from it, in-process only.
describe('local provider composition seam', () => {
  const temporary = useTemporaryDirectories();

  it('takes its provider id from the settings, local by default', async () => {
    expect((await localProvider(temporary)).provider.providerId).toBe('local');
    expect((await localProvider(temporary, { providerId: 'fs' })).provider.providerId).toBe('fs');
  });

  it('names the real directory of a live backend workspace', async () => {
    const { provider, root } = await localProvider(temporary);
    const { request } = await createBackend(provider);
    expect(await provider.workspaceDirectory(request.resource)).toBe(join(await realpath(root), request.backendId));
  });

  it('refuses a resource that names no live workspace as gone', async () => {
    const { provider } = await localProvider(temporary);
    const { request } = await createBackend(provider);
    await expect(provider.workspaceDirectory({ workspace: '../escape' })).rejects.toSatisfy((error) => BackendGoneError.isInstance(error));
    await provider.release(request);
    await expect(provider.workspaceDirectory(request.resource)).rejects.toSatisfy((error) => BackendGoneError.isInstance(error));
  });
});
