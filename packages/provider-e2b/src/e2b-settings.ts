import type { ConnectionOpts } from 'e2b';

/** How `createE2BProvider` reaches E2B and shapes its sandboxes. */
export interface E2BProviderSettings {
  /** The E2B API key. Prefer `apiKeyEnv`: settings objects get logged and copied around. */
  apiKey?: string;
  /** Name of the environment variable holding the key. Default `E2B_API_KEY` (used when `apiKey` is absent). */
  apiKeyEnv?: string;
  /** Control-plane base URL. Default: the SDK's, `https://api.<domain>`. */
  apiUrl?: string;
  /** envd base URL for every sandbox (an emulator or a proxy). Default: the SDK's, per sandbox. */
  sandboxUrl?: string;
  /** E2B domain. Default: the SDK's, `e2b.app`. */
  domain?: string;
  /** Template new sandboxes start from unless a runtime names another. Default `base`. */
  template?: string;
  /**
   * How long a sandbox lives without a refresh (E2B's sandbox timeout). While its runtime is
   * open the provider refreshes it well before it lapses, so this is how long a sandbox outlives
   * a daemon that died. Default 600 000 (10 minutes); 1 000 … 86 400 000.
   */
  sandboxTimeoutMs?: number;
  /**
   * The shortest sandbox timeout accepted: `sandboxTimeoutMs` and a runtime's own `timeout_ms`
   * (`provider_options`) below it are refused. Default 1 000 (E2B's). In a fleet the keep-alive
   * duty can take up to a lease plus a heartbeat to move to another node: `runtimed` sets it
   * above twice `fleet.lease_ms`.
   */
  minSandboxTimeoutMs?: number;
  /** Deadline of every single SDK request. Default 30 000; 100 … 600 000. */
  requestTimeoutMs?: number;
  /** Absolute path of the workspace inside every sandbox. Default `/home/user/workspace`. */
  workspaceRoot?: string;
  /** Shell that runs commands as `<shell> -c <command>` when a request names none. Default `/bin/bash`. */
  shell?: string;
  /**
   * The sandbox user every command and file call runs as (envd's `user`). Default `user`, E2B's
   * default user (home `/home/user`, where the default workspace is); `root` where a template
   * needs it. Files the runtime writes belong to this user.
   */
  user?: string;
}

/** The settings with every default filled in and the key resolved. Never logged. */
export interface ResolvedE2BSettings {
  /** Spread into every SDK call: key, URLs, request deadline, no debug mode, no SDK logging. */
  connection: ConnectionOpts;
  apiKey: string;
  template: string;
  sandboxTimeoutMs: number;
  minSandboxTimeoutMs: number;
  requestTimeoutMs: number;
  workspaceRoot: string;
  shell: string;
  user: string;
}

export const DEFAULT_SANDBOX_TIMEOUT_MS = 600_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const MIN_SANDBOX_TIMEOUT_MS = 1_000;
/** E2B's ceiling for a sandbox timeout (24 hours, Pro tier). */
export const MAX_SANDBOX_TIMEOUT_MS = 86_400_000;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A POSIX user name (what envd accepts in its Basic credentials: no `:`). */
export const SANDBOX_USER = /^[a-z_][a-z0-9_-]{0,31}$/;
/** E2B's default sandbox user. */
export const DEFAULT_SANDBOX_USER = 'user';

function integerIn(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`createE2BProvider: ${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

function httpUrl(name: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new TypeError(`createE2BProvider: ${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  return value;
}

function absolutePath(name: string, value: string): string {
  if (!value.startsWith('/') || value.includes('\0') || value.split('/').includes('..')) {
    throw new TypeError(`createE2BProvider: ${name} must be an absolute path without "..", got ${JSON.stringify(value)}`);
  }
  return value.length > 1 ? value.replace(/\/+$/, '') : value;
}

/**
 * Fills in defaults and resolves the API key (from `apiKey`, else the variable named by
 * `apiKeyEnv`). Throws `TypeError` for a missing key or a bad setting; messages name the
 * setting or the variable, never the key.
 */
export function resolveE2BSettings(settings: E2BProviderSettings, env: NodeJS.ProcessEnv = process.env): ResolvedE2BSettings {
  const apiKeyEnv = settings.apiKeyEnv ?? 'E2B_API_KEY';
  if (!ENV_NAME.test(apiKeyEnv)) throw new TypeError(`createE2BProvider: apiKeyEnv must be an environment variable name, got ${JSON.stringify(apiKeyEnv)}`);
  const apiKey = (settings.apiKey ?? env[apiKeyEnv] ?? '').trim();
  if (apiKey === '') {
    throw new TypeError(
      settings.apiKey !== undefined
        ? 'createE2BProvider: apiKey is empty'
        : `createE2BProvider: no E2B API key: the environment variable ${apiKeyEnv} is not set or empty`,
    );
  }
  const requestTimeoutMs = integerIn('requestTimeoutMs', settings.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS, 100, 600_000);
  const connection: ConnectionOpts = {
    apiKey,
    requestTimeoutMs,
    // Never the SDK's debug mode (it fakes create and connect) and never its console logging.
    debug: false,
    logger: {},
    ...(settings.apiUrl !== undefined ? { apiUrl: httpUrl('apiUrl', settings.apiUrl) } : {}),
    ...(settings.sandboxUrl !== undefined ? { sandboxUrl: httpUrl('sandboxUrl', settings.sandboxUrl) } : {}),
    ...(settings.domain !== undefined ? { domain: settings.domain } : {}),
  };
  const template = settings.template ?? 'base';
  if (template.trim() === '') throw new TypeError('createE2BProvider: template must not be empty');
  const shell = settings.shell ?? '/bin/bash';
  const user = settings.user ?? DEFAULT_SANDBOX_USER;
  if (!SANDBOX_USER.test(user)) throw new TypeError(`createE2BProvider: user must be a user name (lower-case letters, digits, "_" and "-"), got ${JSON.stringify(user)}`);
  const minSandboxTimeoutMs = integerIn('minSandboxTimeoutMs', settings.minSandboxTimeoutMs, MIN_SANDBOX_TIMEOUT_MS, MIN_SANDBOX_TIMEOUT_MS, MAX_SANDBOX_TIMEOUT_MS);
  return {
    connection,
    apiKey,
    template,
    sandboxTimeoutMs: integerIn('sandboxTimeoutMs', settings.sandboxTimeoutMs, DEFAULT_SANDBOX_TIMEOUT_MS, minSandboxTimeoutMs, MAX_SANDBOX_TIMEOUT_MS),
    minSandboxTimeoutMs,
    requestTimeoutMs,
    workspaceRoot: absolutePath('workspaceRoot', settings.workspaceRoot ?? '/home/user/workspace'),
    shell: absolutePath('shell', shell),
    user,
  };
}
