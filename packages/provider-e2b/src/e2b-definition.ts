import { defineProvider } from '@runtimectl/provider';
import { z } from 'zod';
import { createE2BProvider } from './e2b-provider';
import { DEFAULT_SANDBOX_USER, SANDBOX_USER } from './e2b-settings';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** E2B as runtimed loads it (`[providers.e2b]`). The API key is read from the variable `api_key_env` names: keys never go in files. */
export const e2bProviderDefinition = defineProvider({
  id: 'e2b',
  description: 'E2B sandboxes, with snapshots',
  settings: z.strictObject({
    api_key_env: z
      .string()
      .regex(ENV_NAME, 'an environment variable name')
      .default('E2B_API_KEY')
      .describe('variable holding the E2B API key (default E2B_API_KEY; keys never go in files)'),
    api_url: z.string().min(1).optional().describe('E2B control-plane URL (default https://api.<domain>)'),
    sandbox_url: z.string().min(1).optional().describe('envd URL for every sandbox, e.g. an emulator (default per sandbox)'),
    domain: z.string().min(1).optional().describe('E2B domain (default e2b.app)'),
    template: z.string().min(1).default('base').describe('template new sandboxes start from (default base)'),
    sandbox_timeout_ms: z
      .int()
      .min(1_000)
      .max(86_400_000)
      .default(600_000)
      .describe('sandbox timeout, refreshed while its runtime is open (default 600000)'),
    request_timeout_ms: z.int().min(100).max(600_000).default(30_000).describe('deadline of each E2B request (default 30000)'),
    user: z
      .string()
      .regex(SANDBOX_USER, 'a user name')
      .default(DEFAULT_SANDBOX_USER)
      .describe('sandbox user commands and file calls run as (default user, E2B\'s default; root where a template needs it)'),
  }),
  create(settings, context) {
    // The keep-alive duty moves to another node only after a dead holder's lease lapses and a
    // heartbeat later; the sandbox has two thirds of its timeout left then (docs/config.md).
    if (settings.sandbox_timeout_ms <= 2 * context.leaseMs) {
      throw new TypeError(
        `sandbox_timeout_ms: must exceed twice fleet.lease_ms (${context.leaseMs} ms), or a sandbox may lapse while the keep-alive duty moves to another node`,
      );
    }
    return createE2BProvider({
      apiKeyEnv: settings.api_key_env,
      template: settings.template,
      sandboxTimeoutMs: settings.sandbox_timeout_ms,
      // A runtime's own timeout_ms obeys the fleet's rule too (docs/config.md, keep-alive).
      minSandboxTimeoutMs: 2 * context.leaseMs + 1,
      requestTimeoutMs: settings.request_timeout_ms,
      user: settings.user,
      ...(settings.api_url !== undefined ? { apiUrl: settings.api_url } : {}),
      ...(settings.sandbox_url !== undefined ? { sandboxUrl: settings.sandbox_url } : {}),
      ...(settings.domain !== undefined ? { domain: settings.domain } : {}),
    });
  },
});
