import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimedRefusal, startRuntimed, type RuntimedProcess } from './runtimed-process';
import { temporaryDirectory } from './temporary-directory';

const ACME = fileURLToPath(new URL('./fixtures/acme-provider', import.meta.url));

// A third party's provider package, run by the built runtimed from configuration alone.
describe('runtimed runs a provider package named by its configuration', () => {
  const dir = temporaryDirectory('runtimed-acme-');
  const config = join(dir, 'runtimed.toml');
  let daemon: RuntimedProcess;

  beforeAll(async () => {
    symlinkSync(ACME, join(dir, 'acme'));
    writeFileSync(config, '[runtimes]\ndefault_provider = "acme"\n\n[providers.acme]\npackage = "./acme"\ngreeting = "hi"\n');
    daemon = await startRuntimed(['--config', config], { RUNTIMECTL_PROVIDERS_ACME_LIMIT: '5' });
  }, 90_000);
  afterAll(() => daemon?.stop());

  it('lists it, opens a runtime on it and checkpoints it over HTTP, with the settings and context the package got', async () => {
    expect(daemon.banner).toMatch(/providers: local, fs, acme \(default\)/);
    const providers = (await (await fetch(`${daemon.url}/api/v1/providers`)).json()) as { providers: Array<{ provider: string; capabilities: { snapshot: boolean } }> };
    expect(providers.providers.find((entry) => entry.provider === 'acme')?.capabilities.snapshot).toBe(true);
    const opened = await fetch(`${daemon.url}/api/v1/runtimes/open`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_id: 'c1', sender_id: 'me' }),
    });
    expect(opened.status).toBe(200);
    const { runtime } = (await opened.json()) as { runtime: { runtime_id: string } };
    const detail = (await (await fetch(`${daemon.url}/api/v1/runtimes/${encodeURIComponent(runtime.runtime_id)}`)).json()) as { provider: string };
    expect(detail.provider).toBe('acme');
    const checkpoint = await fetch(`${daemon.url}/api/v1/runtimes/checkpoint`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ runtime_id: runtime.runtime_id }),
    });
    expect(checkpoint.status).toBe(200);
    const seen = JSON.parse(readFileSync(join(daemon.stateDir, 'providers', 'acme', 'created.json'), 'utf8')) as { settings: unknown; providerId: string };
    expect(seen).toMatchObject({ settings: { greeting: 'hi', limit: 5 }, providerId: 'acme' });
  });
});

describe('runtimed refuses a provider package it cannot run', () => {
  it('stops with exit 2 and one line naming the key, before anything is written', async () => {
    const dir = temporaryDirectory('runtimed-acme-');
    const config = join(dir, 'runtimed.toml');
    writeFileSync(config, '[providers.acme]\npackage = "@acme/not-installed"\n');
    const refusal = await runtimedRefusal(['--config', config]);
    expect(refusal.code).toBe(2);
    expect(refusal.stderr).toMatch(/^runtimed: providers\.acme\.package: package @acme\/not-installed not found \(looked beside .+\)/m);
  });
});
