import { describe, expect, it } from 'vitest';
import { parseDaemonArguments } from './cli-arguments';
import { loadConfig } from './config/load-config';

const flagsOf = (...args: string[]) => parseDaemonArguments(['node', 'runtimed', ...args]).flags;

describe('parseDaemonArguments', () => {
  it('--provider fs names the default provider', () => {
    expect(flagsOf('--provider', 'fs')['runtimes.default_provider']).toBe('fs');
  });

  it('--workspace-quota-bytes, --local-isolation and --local-network set both providers on this machine (local and fs)', () => {
    const flags = flagsOf('--workspace-quota-bytes', '4096', '--local-isolation', 'none', '--local-network', 'off');
    const config = loadConfig({ env: { HOME: '/home/someone' }, flags });
    for (const section of [config.providers.local, config.providers.fs]) {
      expect(section).toMatchObject({ workspace_quota_bytes: 4096, isolation: 'none', network: 'none' });
    }
    const egress = loadConfig({ env: { HOME: '/home/someone' }, flags: flagsOf('--local-network', 'egress') });
    expect([egress.providers.local.network, egress.providers.fs.network]).toEqual(['egress', 'egress']);
  });
});
