import { describe, expect, it } from 'vitest';
import type { BackendProviderV1 } from '@runtimectl/core';
import { ConfigError } from '../config/config-error';
import { describeLocalIsolation } from './local-isolation';

const localWith = (isolation: () => Promise<unknown>) => ({ providerId: 'local', isolation }) as unknown as BackendProviderV1;

describe('describeLocalIsolation', () => {
  it('refuses the start with a config error when isolation "namespace" was required and cannot work', async () => {
    const provider = localWith(() => Promise.reject(new Error('local provider: isolation "namespace" is not available on this machine: unshare failed')));
    const error = await describeLocalIsolation([provider], false).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe('providers.local.isolation: local provider: isolation "namespace" is not available on this machine: unshare failed');
  });

  it('names the fallback and its reason', async () => {
    const provider = localWith(async () => ({ mode: 'none', network: true, reason: 'unshare not permitted: Operation not permitted' }));
    expect(await describeLocalIsolation([provider], false)).toBe('local isolation: none (unshare not permitted: Operation not permitted)');
  });

  it('describes each provider whose commands run on this machine (local, fs), naming it and its own setting', async () => {
    const local = localWith(async () => ({ mode: 'namespace', network: false }));
    const fs = { providerId: 'fs', isolation: async () => ({ mode: 'namespace', network: true }) } as unknown as BackendProviderV1;
    expect(await describeLocalIsolation([local, fs, { providerId: 'memory' } as BackendProviderV1], false)).toBe(
      'local isolation: namespace (network off) · fs isolation: namespace (network on: commands can reach this API on loopback; set a bearer token or providers.fs.network = false)',
    );
    const refused = { providerId: 'fs', isolation: () => Promise.reject(new Error('unshare failed')) } as unknown as BackendProviderV1;
    await expect(describeLocalIsolation([refused], false)).rejects.toThrow('providers.fs.isolation: unshare failed');
  });

  it('says nothing without a local provider', async () => {
    expect(await describeLocalIsolation([{ providerId: 'memory' } as BackendProviderV1], false)).toBeUndefined();
  });
});
