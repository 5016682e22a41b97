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

  it('--workspace-quota-inodes sets the entry quota of both providers on this machine, and refuses what is not a count', async () => {
    const [local, fs] = await loadProviders(loadConfig({ env: { HOME: '/home/someone' }, flags: flagsOf('--workspace-quota-inodes', '5000') }));
    for (const provider of [local!, fs!]) expect(provider.settings).toMatchObject({ workspace_quota_inodes: 5000 });
    expect(() => parseDaemonArguments(['node', 'runtimed', '--workspace-quota-inodes', '1e6'])).toThrow(/--workspace-quota-inodes: expected a whole number of files, got "1e6"/);
  });

});
