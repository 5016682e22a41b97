import { describe, expect, it } from 'vitest';
import { resolveE2BSettings } from './e2b-settings';

describe('resolveE2BSettings', () => {
  it('fills in the defaults and never lets the SDK fall into debug mode or log', () => {
    const settings = resolveE2BSettings({}, { E2B_API_KEY: 'e2b_from_env' });
    expect(settings).toMatchObject({
      apiKey: 'e2b_from_env',
      template: 'base',
      sandboxTimeoutMs: 600_000,
      requestTimeoutMs: 30_000,
      workspaceRoot: '/home/user/workspace',
      shell: '/bin/bash',
      user: 'user',
      connection: { apiKey: 'e2b_from_env', requestTimeoutMs: 30_000, debug: false, logger: {} },
    });
    expect(settings.connection).not.toHaveProperty('apiUrl');
  });

  it('prefers apiKey over the variable, and reads the variable apiKeyEnv names', () => {
    expect(resolveE2BSettings({ apiKey: 'e2b_given' }, { E2B_API_KEY: 'e2b_env' }).apiKey).toBe('e2b_given');
    expect(resolveE2BSettings({ apiKeyEnv: 'MY_KEY' }, { MY_KEY: ' e2b_mine ' }).apiKey).toBe('e2b_mine');
  });

  it('refuses a missing key naming the variable, and out-of-range settings naming the setting', () => {
    expect(() => resolveE2BSettings({ apiKeyEnv: 'MY_KEY' }, {})).toThrow(/the environment variable MY_KEY is not set or empty/);
    expect(() => resolveE2BSettings({ apiKey: 'k', apiUrl: 'api.e2b.app' }, {})).toThrow(/apiUrl must be an absolute http\(s\) URL/);
    expect(() => resolveE2BSettings({ apiKeyEnv: 'not a name' }, {})).toThrow(/apiKeyEnv must be an environment variable name/);
    expect(() => resolveE2BSettings({ apiKey: 'k', sandboxTimeoutMs: 500 }, {})).toThrow(/sandboxTimeoutMs must be an integer from 1000 to 86400000/);
    expect(() => resolveE2BSettings({ apiKey: 'k', requestTimeoutMs: 0 }, {})).toThrow(/requestTimeoutMs/);
    expect(() => resolveE2BSettings({ apiKey: 'k', workspaceRoot: 'relative/dir' }, {})).toThrow(/workspaceRoot must be an absolute path/);
    expect(() => resolveE2BSettings({ apiKey: 'k', user: 'root:x' }, {})).toThrow(/user must be a user name/);
    expect(resolveE2BSettings({ apiKey: 'k', user: 'root' }, {}).user).toBe('root');
  });
});
