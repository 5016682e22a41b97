import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { tokenSha256 } from '@runtimectl/core';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runCliJson } from './cli-process';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';

const daemons: RuntimedProcess[] = [];
afterAll(() => Promise.all(daemons.map((daemon) => daemon.stop())));

interface NewKey {
  name: string;
  token: string;
  token_sha256: string;
  scopes: string[];
}

describe('runtimectl keys new', () => {
  it('makes a 256-bit token and prints the config entry holding only its hash; without --scope the key reads', async () => {
    const key = await runCliJson<NewKey>(['keys', 'new', 'dashboard']);
    expect(key).toMatchObject({ name: 'dashboard', scopes: ['read'] });
    expect(key.token).toMatch(/^rtk_[A-Za-z0-9_-]{43}$/);
    expect(key.token_sha256).toBe(tokenSha256(key.token));
    const human = await runCli(['keys', 'new', 'agent-7', '--scope', 'exec', 'checkpoint']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^token: rtk_\S+\n.*shown once.*\n\n\[\[http\.auth\.keys\]\]\nname = "agent-7"\ntoken_sha256 = "[0-9a-f]{64}"\nscopes = \["exec", "checkpoint"\]\n$/);
    const bad = await runCli(['keys', 'new', 'no spaces']);
    expect(bad.code).toBe(2);
    const unknownScope = await runCli(['keys', 'new', 'x', '--scope', 'root']);
    expect(unknownScope.code).toBe(2);
    expect((await runCli(['keys', 'new', 'x', '--scope', 'admin', '--runtime', 'rt-1'])).code).toBe(2);
  });

  it('the entry it prints, pasted into runtimed.toml, gives a key the daemon takes: it reads its runtime only, and a write is refused with a line naming the scope', async () => {
    const human = (await runCli(['keys', 'new', 'viewer', '--runtime', 'shown'])).stdout;
    expect(human).toContain('\nruntimes = ["shown"]\n');
    const token = /^token: (\S+)$/m.exec(human)![1]!;
    const config = join(mkdtempSync(join(tmpdir(), 'runtimectl-keys-')), 'runtimed.toml');
    writeFileSync(config, `[http]\nport = 0\n${human.slice(human.indexOf('[[http.auth.keys]]'))}`);
    const daemon = await startRuntimed(['--provider', 'memory', '--config', config], { RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'ADMIN_TOKEN', ADMIN_TOKEN: 'admin-token-0123456789abcdef' });
    daemons.push(daemon);
    rmSync(dirname(config), { recursive: true, force: true });
    const admin = { url: daemon.url, env: { RUNTIMECTL_TOKEN: 'admin-token-0123456789abcdef' } };
    const viewer = { url: daemon.url, env: { RUNTIMECTL_TOKEN: token } };
    expect((await runCli(['open', '--id', 'shown', '--sender', 'ops'], admin)).code).toBe(0);
    expect((await runCli(['open', '--id', 'hidden', '--sender', 'ops'], admin)).code).toBe(0);
    expect((await runCli(['ls', '--quiet'], viewer)).stdout).toBe('shown\n');
    expect((await runCli(['show', 'hidden'], viewer)).code).toBe(4);
    const refused = await runCli(['checkpoint', 'shown'], viewer);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('lacks the checkpoint scope (forbidden)');
  });
});

describe('runtimectl keys create, list and revoke (keys the daemon stores)', () => {
  it('a key created on a running daemon works at once, lists without its token, and is refused once revoked; no restart', async () => {
    const daemon = await startRuntimed(['--provider', 'memory', '--store', 'sqlite'], { RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'ADMIN_TOKEN', ADMIN_TOKEN: 'admin-token-0123456789abcdef' });
    daemons.push(daemon);
    const admin = { url: daemon.url, env: { RUNTIMECTL_TOKEN: 'admin-token-0123456789abcdef' } };
    expect((await runCli(['open', '--id', 'mine', '--sender', 'ops'], admin)).code).toBe(0);
    expect((await runCli(['open', '--id', 'theirs', '--sender', 'ops'], admin)).code).toBe(0);
    const created = await runCliJson<{ token: string; key: { name: string; source: string; expires_at_ms: number } }>(
      ['keys', 'create', 'agent', '--scope', 'exec', '--runtime', 'mine', '--expires-in', '2h'],
      admin,
    );
    expect(created.key).toMatchObject({ name: 'agent', source: 'stored' });
    expect(created.key.expires_at_ms).toBeGreaterThan(Date.now() + 7_100_000);
    const agent = { url: daemon.url, env: { RUNTIMECTL_TOKEN: created.token } };
    expect((await runCli(['ls', '--quiet'], agent)).stdout).toBe('mine\n');
    expect((await runCli(['show', 'theirs'], agent)).code).toBe(4);
    const listed = await runCli(['keys', 'list'], admin);
    expect(listed.stdout, listed.stderr).toMatch(/^NAME\s+SOURCE\s+SCOPES\s+REACH\s+EXPIRES\n/);
    expect(listed.stdout, listed.stdout).toMatch(/\nagent\s+stored\s+exec\s+runtime mine\s+in [12] hours?\n/);
    expect(listed.stdout).not.toContain(created.token);
    const again = await runCli(['keys', 'create', 'agent'], admin);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('already exists (api_key_exists)');
    expect((await runCli(['keys', 'create', 'self', '--scope', 'admin'], agent)).code).toBe(1);
    expect((await runCli(['keys', 'revoke', 'agent'], admin)).stdout).toBe('revoked agent\n');
    const refused = await runCli(['ls'], agent);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('unauthorized');
    expect((await runCli(['keys', 'revoke', 'agent'], admin)).code).toBe(4);
  });
});
