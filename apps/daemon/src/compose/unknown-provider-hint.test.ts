import { describe, expect, it } from 'vitest';
import { unknownProviderHint } from './unknown-provider-hint';

describe('the hint after "unknown provider"', () => {
  it('for a provider runtimed can run but the config leaves off: the setting that enables it, in the file and the environment', () => {
    expect(unknownProviderHint('memory')).toBe(
      'Enable it in runtimed\'s config: `[providers.memory] enabled = true`, or RUNTIMECTL_PROVIDERS_MEMORY_ENABLED=true (docs/config.md), and restart it.',
    );
    expect(unknownProviderHint('e2b')).toContain('`[providers.e2b] enabled = true`, or RUNTIMECTL_PROVIDERS_E2B_ENABLED=true, with its API key in E2B_API_KEY');
  });

  it('for a provider runtimed cannot run: the ones it can', () => {
    expect(unknownProviderHint('docker')).toBe('runtimed runs the providers local, fs, memory and e2b (docs/config.md).');
  });
});
