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
    const provider = localWith(async () => ({ mode: 'none', network: 'host', reason: 'unshare not permitted: Operation not permitted' }));
    expect(await describeLocalIsolation([provider], false)).toBe('local isolation: none (unshare not permitted: Operation not permitted)');
  });

  it('describes each provider whose commands run on this machine (local, fs): network, identity, workspace path and limits, each with what is missing and why', async () => {
    const local = localWith(async () => ({
      mode: 'namespace',
      network: 'egress',
      egressHelper: 'slirp4netns',
      identity: { uid: 2147000000, gid: 2147000000 },
      workspacePath: '/home/user/workspace',
      limits: { memoryBytes: 4 * 1024 ** 3, pids: 4096, cpuCores: 1 },
      limitsVia: 'cgroup v1',
    }));
    const fs = {
      providerId: 'fs',
      isolation: async () => ({
        mode: 'namespace',
        network: 'host',
        identityReason: 'not running as root',
        workspacePath: '/workspace',
        limitsReason: 'no cgroup to apply limits in: no memory, pids or cpu cgroup controller is mounted',
      }),
    } as unknown as BackendProviderV1;
    expect(await describeLocalIsolation([local, fs, { providerId: 'memory' } as BackendProviderV1], false)).toBe(
      'local isolation: namespace (network egress via slirp4netns; commands as uid 2147000000 gid 2147000000; workspace /home/user/workspace; limits memory 4 GiB, 4096 processes, 1 CPU (cgroup v1)) · ' +
        'fs isolation: namespace (network host: commands can reach this API on loopback; set a bearer token or providers.fs.network = "egress"; commands as this daemon\'s user (not running as root); workspace /workspace; no limits: no cgroup to apply limits in: no memory, pids or cpu cgroup controller is mounted)',
    );
    const offline = localWith(async () => ({ mode: 'namespace', network: 'none', networkReason: 'egress needs slirp4netns or pasta on the PATH', workspacePath: '/w' }));
    expect(await describeLocalIsolation([offline], false)).toMatch(/^local isolation: namespace \(network none: egress needs slirp4netns or pasta on the PATH; /);
    const refused = { providerId: 'fs', isolation: () => Promise.reject(new Error('unshare failed')) } as unknown as BackendProviderV1;
    await expect(describeLocalIsolation([refused], false)).rejects.toThrow('providers.fs.isolation: unshare failed');
  });

  it('names sandbox_ids when the sandbox identity cannot be used', async () => {
    const provider = localWith(() => Promise.reject(new TypeError('sandbox id 5000 is user app\'s')));
    await expect(describeLocalIsolation([provider], false)).rejects.toThrow("providers.local.sandbox_ids: sandbox id 5000 is user app's");
  });

  it('says nothing without a local provider', async () => {
    expect(await describeLocalIsolation([{ providerId: 'memory' } as BackendProviderV1], false)).toBeUndefined();
  });
});
