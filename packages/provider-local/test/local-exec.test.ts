import { describe, expect, it } from 'vitest';
import { RuntimectlError } from '@runtimectl/core';
import { createBackend, eventually, localProvider, sleepersOf, text, uniqueSleep, useTemporaryDirectories } from './local-fixture';

const exec = { maxOutputBytes: 64 * 1024, timeoutMs: 20_000 };

/** Names of the variables a command sees (`env` output), without those the shell sets itself. */
function variableNames(output: Uint8Array): string[] {
  const shellOwn = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);
  return text(output)
    .split('\n')
    .filter((line) => line.includes('='))
    .map((line) => line.slice(0, line.indexOf('=')))
    .filter((name) => !shellOwn.has(name))
    .sort();
}

describe('local provider exec', () => {
  const temporary = useTemporaryDirectories();

  it('gives commands only PATH, HOME (the workspace) and LANG, never the daemon environment', async () => {
    process.env.RUNTIMECTL_TEST_TOKEN = 'daemon-secret-token';
    try {
      const { provider } = await localProvider(temporary);
      const { backend } = await createBackend(provider);
      const result = await backend.exec({ ...exec, command: 'env' });
      expect(variableNames(result.stdout)).toEqual(['HOME', 'LANG', 'PATH']);
      expect(text(result.stdout)).not.toContain('daemon-secret-token');
      expect(text((await backend.exec({ ...exec, command: 'echo "$HOME"' })).stdout)).toBe(`${backend.workspaceRoot}\n`);
    } finally {
      delete process.env.RUNTIMECTL_TEST_TOKEN;
    }
  });

  it('adds the configured env to every command, and the request env wins over it', async () => {
    const { provider } = await localProvider(temporary, { env: { TEAM: 'platform', LEVEL: 'configured' } });
    const { backend } = await createBackend(provider);
    const result = await backend.exec({ ...exec, command: 'echo "$TEAM $LEVEL"', env: { LEVEL: 'requested' } });
    expect(text(result.stdout)).toBe('platform requested\n');
  });

  it('refuses an env value with a NUL byte with invalid_request', async () => {
    const { provider } = await localProvider(temporary);
    const { backend } = await createBackend(provider);
    const error = await backend.exec({ ...exec, command: 'true', env: { BAD: 'a\u0000b' } }).catch((caught: unknown) => caught);
    expect((error as RuntimectlError).code).toBe('invalid_request');
  });

  it('runs commands with the configured shell, and a request may name another', async () => {
    const { provider } = await localProvider(temporary, { shell: '/bin/bash' });
    const { backend } = await createBackend(provider);
    expect(text((await backend.exec({ ...exec, command: 'echo "${BASH_VERSION:+bash}"' })).stdout)).toBe('bash\n');
    expect(text((await backend.exec({ ...exec, command: 'echo "${BASH_VERSION:+bash}"', shell: '/bin/sh' })).stdout)).toBe('\n');
  });

  it('refuses a shell that does not exist with invalid_request', async () => {
    const { provider } = await localProvider(temporary);
    const { backend } = await createBackend(provider);
    const error = await backend.exec({ ...exec, command: 'true', shell: '/no/such/shell' }).catch((caught: unknown) => caught);
    expect((error as RuntimectlError).code).toBe('invalid_request');
  });

  it('fails with path_not_found when cwd does not exist', async () => {
    const { provider } = await localProvider(temporary);
    const { backend } = await createBackend(provider);
    const error = await backend.exec({ ...exec, command: 'pwd', cwd: 'missing/dir' }).catch((caught: unknown) => caught);
    expect((error as RuntimectlError).code).toBe('path_not_found');
  });

  it('returns once the shell exits even if a background job keeps the output pipes open', async () => {
    const { provider } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    const startedAt = Date.now();
    const result = await backend.exec({ ...exec, command: 'sleep 300 & echo started' });
    // Far below the background job's 300 s: exec did not wait for it (generous for loaded machines).
    expect(Date.now() - startedAt).toBeLessThan(60_000);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(text(result.stdout)).toBe('started\n');
    await provider.release(request);
  });

  it('kills background processes a command left running when the backend is released', async () => {
    const { provider } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    const seconds = uniqueSleep();
    await backend.exec({ ...exec, command: `sleep ${seconds} >/dev/null 2>&1 &` });
    expect(await eventually(async () => (await sleepersOf(seconds)).length === 1, 2_000)).toBe(true);
    await provider.release(request);
    expect(await eventually(async () => (await sleepersOf(seconds)).length === 0, 2_000)).toBe(true);
  });

  it('kills an orphan that ignores SIGTERM on release, too', async () => {
    const { provider } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    const seconds = uniqueSleep();
    await backend.exec({ ...exec, command: `trap '' TERM HUP; sleep ${seconds} >/dev/null 2>&1 &` });
    expect(await eventually(async () => (await sleepersOf(seconds)).length === 1, 2_000)).toBe(true);
    await provider.release(request);
    expect(await eventually(async () => (await sleepersOf(seconds)).length === 0, 2_000)).toBe(true);
  });

  it('keeps only maxOutputBytes of a flood of output while reading all of it', async () => {
    const { provider } = await localProvider(temporary);
    const { backend } = await createBackend(provider);
    const result = await backend.exec({ command: 'head -c 67108864 /dev/zero', maxOutputBytes: 1000, timeoutMs: 60_000 });
    expect(result).toMatchObject({ exitCode: 0, truncated: true, timedOut: false });
    expect(result.stdout.byteLength).toBe(1000);
  });

  it('reports a command killed by a signal with exitCode null and timedOut false', async () => {
    const { provider } = await localProvider(temporary);
    const { backend } = await createBackend(provider);
    const result = await backend.exec({ ...exec, command: 'kill -KILL $$' });
    expect(result).toMatchObject({ exitCode: null, timedOut: false });
  });
});
