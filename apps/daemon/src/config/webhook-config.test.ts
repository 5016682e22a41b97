import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config';
import { temporaryDirectory } from '../../test/temporary-directory';

const SECRET = 'whsec_config_0123456789abcdef';

const fromToml = (text: string, env: NodeJS.ProcessEnv = {}) => {
  const path = join(temporaryDirectory('runtimed-webhooks-'), 'config.toml');
  writeFileSync(path, text);
  return loadConfig({ env: { HOME: '/home/someone', ...env }, flags: {}, configPath: path });
};

/** The message a load fails with ('' when it loads). */
const failureOf = (text: string, env: NodeJS.ProcessEnv = {}) => {
  try {
    fromToml(text, env);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('[[webhooks]] in the config file', () => {
  it('no webhooks by default', () => {
    expect(fromToml('').webhooks).toStrictEqual([]);
  });

  it('each webhook takes an id, url, secret (or secret_env), filters and retry settings with defaults', () => {
    const config = fromToml(
      `[[webhooks]]\nid = "ops"\nurl = "https://hooks.example.com/in"\nsecret_env = "OPS_HOOK_SECRET"\nevent_types = ["runtime.closed", "runtime.failed"]\nruntime_id = "agent-1"\n\n` +
        `[[webhooks]]\nid = "audit"\nurl = "http://127.0.0.1:9000/audit"\nsecret = "${SECRET}"\nmax_attempts = 3\nbase_backoff_ms = 500\nmax_backoff_ms = 2000\ntimeout_ms = 1500\n`,
      { OPS_HOOK_SECRET: 'whsec_from_the_environment_42' },
    );
    expect(config.webhookSettings).toStrictEqual([
      { id: 'ops', url: 'https://hooks.example.com/in', secret: 'whsec_from_the_environment_42', eventTypes: ['runtime.closed', 'runtime.failed'], runtimeId: 'agent-1', maxAttempts: 8, baseBackoffMs: 1_000, maxBackoffMs: 300_000, timeoutMs: 10_000 },
      { id: 'audit', url: 'http://127.0.0.1:9000/audit', secret: SECRET, eventTypes: undefined, runtimeId: undefined, maxAttempts: 3, baseBackoffMs: 500, maxBackoffMs: 2_000, timeoutMs: 1_500 },
    ]);
  });

  it('refuses at start, with clear errors that never show a secret: duplicate ids, a bad URL or type, secret and secret_env together or neither, base over max backoff', () => {
    const hook = (extra: string, id = 'ops') => `[[webhooks]]\nid = "${id}"\nurl = "https://h.example.com/"\n${extra}\n`;
    expect(failureOf(hook(`secret = "${SECRET}"`) + hook(`secret = "${SECRET}"`))).toMatch(/webhooks\.1\.id: webhook id ops is configured twice/);
    expect(failureOf(`[[webhooks]]\nid = "ops"\nurl = "ftp://h.example.com/"\nsecret = "${SECRET}"\n`)).toMatch(/webhooks\.0\.url: an http:\/\/ or https:\/\/ URL/);
    expect(failureOf(hook(`secret = "${SECRET}"\nevent_types = ["runtime.exploded"]`))).toMatch(/webhooks\.0\.event_types\.0/);
    expect(failureOf(hook(`secret = "${SECRET}"\nsecret_env = "X"`))).toMatch(/webhooks\.0: give secret or secret_env, not both/);
    expect(failureOf(hook(''))).toMatch(/webhooks\.0: give secret or secret_env/);
    expect(failureOf(hook('secret = "short"'))).toMatch(/webhooks\.0\.secret: at least 16 characters/);
    expect(failureOf(hook(`secret = "${SECRET}"\nbase_backoff_ms = 5000\nmax_backoff_ms = 1000`))).toMatch(/webhooks\.0\.base_backoff_ms: must not exceed max_backoff_ms/);
    expect(failureOf(hook(`secret = "${SECRET}"\nsecrte = "typo"`))).toMatch(/webhooks\.0\.secrte: unknown key/);
    const missing = failureOf(hook('secret_env = "OPS_HOOK_SECRET"'));
    expect(missing).toMatch(/webhooks\.0\.secret_env: environment variable OPS_HOOK_SECRET is not set or empty/);
    const short = failureOf(hook('secret_env = "OPS_HOOK_SECRET"'), { OPS_HOOK_SECRET: 'tiny-secret' });
    expect(short).toMatch(/webhooks\.0\.secret_env: the secret in OPS_HOOK_SECRET must be at least 16 characters/);
    expect(short).not.toContain('tiny-secret');
    expect(failureOf(hook('secret = "short-secret"'))).not.toContain('short-secret');
  });
});
