import { describe, expect, it } from 'vitest';
import { parseDaemonArguments } from './cli-arguments';
import { loadConfig } from './config/load-config';
import { loadProviders } from './providers/load-providers';

const flagsOf = (...args: string[]) => parseDaemonArguments(['node', 'runtimed', ...args]).flags;

describe('parseDaemonArguments', () => {
  it('--provider fs names the default provider', () => {
    expect(flagsOf('--provider', 'fs')['runtimes.default_provider']).toBe('fs');
  });

  it('--workspace-quota-bytes, --local-isolation and --local-network set both providers on this machine (local and fs)', async () => {
    const settingsOf = async (...args: string[]) => {
      const loaded = await loadProviders(loadConfig({ env: { HOME: '/home/someone' }, flags: flagsOf(...args) }));
      return loaded.map(({ settings }) => settings);
    };
    const [local, fs] = await settingsOf('--workspace-quota-bytes', '4096', '--local-isolation', 'none', '--local-network', 'off');
    for (const section of [local, fs]) expect(section).toMatchObject({ workspace_quota_bytes: 4096, isolation: 'none', network: 'none' });
    expect(await settingsOf('--local-network', 'egress')).toMatchObject([{ network: 'egress' }, { network: 'egress' }]);
  });

});
