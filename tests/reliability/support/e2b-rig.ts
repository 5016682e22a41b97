import { randomBytes } from 'node:crypto';
import type { E2BEmulatorAdminClient } from '@runtimectl/e2b-emulator';
import { Api } from './http';
import { startEmulatorProcess, startRuntimed, type EmulatorProcess, type RuntimedProcess } from './processes';

export interface E2BRigOptions {
  /** Deadline of each E2B request inside the provider (providers.e2b.request_timeout_ms). */
  requestTimeoutMs?: number;
  /** The daemon's deadline on every provider control call (runtimes.provider_call_timeout_ms). */
  providerCallTimeoutMs?: number;
  /** Require this bearer token. */
  token?: string;
  /** More RUNTIMECTL_* settings. */
  env?: Record<string, string>;
}

/** One E2B emulator process and one `runtimed` whose `[providers.e2b]` points at it (the default provider). */
export interface E2BRig {
  emulator: EmulatorProcess;
  admin: E2BEmulatorAdminClient;
  daemon: RuntimedProcess;
  api: Api;
  /** The E2B API key the daemon was given (it must never come back out). */
  apiKey: string;
  /** Stops both processes; resolves with the daemon's exit code (0: it was up and shut down cleanly). */
  stop(): Promise<number | null>;
}

/** The RUNTIMECTL_* settings of a daemon whose `[providers.e2b]` points at the emulator at `emulatorUrl`. */
export function e2bDaemonEnv(emulatorUrl: string, apiKey: string, options: E2BRigOptions = {}): Record<string, string> {
  return {
    RUNTIMECTL_PROVIDERS_E2B_API_URL: emulatorUrl,
    RUNTIMECTL_PROVIDERS_E2B_SANDBOX_URL: emulatorUrl,
    RUNTIMECTL_PROVIDERS_E2B_API_KEY_ENV: 'RELIABILITY_E2B_KEY',
    RELIABILITY_E2B_KEY: apiKey,
    RUNTIMECTL_STORE_SYNCHRONOUS: 'normal',
    ...(options.requestTimeoutMs ? { RUNTIMECTL_PROVIDERS_E2B_REQUEST_TIMEOUT_MS: String(options.requestTimeoutMs) } : {}),
    ...(options.providerCallTimeoutMs ? { RUNTIMECTL_RUNTIMES_PROVIDER_CALL_TIMEOUT_MS: String(options.providerCallTimeoutMs) } : {}),
    ...(options.token ? { RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'RELIABILITY_TOKEN', RELIABILITY_TOKEN: options.token } : {}),
    ...options.env,
  };
}

export async function startE2BRig(options: E2BRigOptions = {}): Promise<E2BRig> {
  const apiKey = `e2b_${randomBytes(20).toString('hex')}`;
  const emulator = await startEmulatorProcess();
  let daemon: RuntimedProcess;
  try {
    daemon = await startRuntimed({
      args: ['--provider', 'e2b'],
      secrets: [apiKey, ...(options.token ? [options.token] : [])],
      env: e2bDaemonEnv(emulator.url, apiKey, options),
    });
  } catch (error) {
    await emulator.stop();
    throw error;
  }
  return {
    emulator,
    admin: emulator.admin,
    daemon,
    api: new Api(daemon.url, options.token),
    apiKey,
    stop: async () => {
      const code = await daemon.stop();
      await emulator.stop();
      return code;
    },
  };
}
