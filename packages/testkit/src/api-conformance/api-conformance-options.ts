export interface ApiConformanceTimeouts {
  /** Per test. Default 30 s (a real provider creates sandboxes and snapshots). */
  testMs: number;
  /** Per setup/teardown hook (closing every runtime the suite opened). Default 120 s. */
  hookMs: number;
}

export interface ApiConformanceOptions {
  /** Where the daemon listens, without `/api/v1`, e.g. `http://127.0.0.1:7333`. */
  baseUrl: string;
  /** The daemon's bearer token when auth is configured; also turns on the auth tests. */
  token?: string;
  /** Shown in the `describe` title. Default: `baseUrl`. */
  name?: string;
  /** Provider the route tests open their runtimes on. Default: the daemon's default provider. */
  provider?: string;
  /**
   * A provider that declares every snapshot capability (checkpoint, checkout, delete_snapshot,
   * pause). Turns on the checkpoint / checkout / pause / resume / delete-snapshot / close
   * semantics, run on it. They create and delete real provider snapshots. Skipped when absent.
   */
  snapshotProvider?: string;
  /**
   * A provider without snapshot support, for the `unsupported_backend` (501) paths. Default: the
   * first provider `GET /api/v1/providers` lists with neither checkout nor pause; skipped when none.
   */
  unsupportedProvider?: string;
  /**
   * Makes the next backend the snapshot provider creates from a snapshot fail (an injected provider
   * failure, e.g. the E2B emulator's `failNext`). Turns on the N-way checkout case "one child
   * failing does not fail the others"; skipped when absent (a black-box client cannot cause it).
   */
  failNextCheckout?: () => Promise<void>;
  timeouts?: Partial<ApiConformanceTimeouts>;
}

export interface ResolvedApiConformanceOptions {
  baseUrl: string;
  token: string | undefined;
  name: string;
  provider: string | undefined;
  snapshotProvider: string | undefined;
  unsupportedProvider: string | undefined;
  failNextCheckout: (() => Promise<void>) | undefined;
  timeouts: ApiConformanceTimeouts;
}

export function resolveApiConformanceOptions(options: ApiConformanceOptions): ResolvedApiConformanceOptions {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`runApiConformance: baseUrl must be an absolute http(s) URL, got ${JSON.stringify(options.baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`runApiConformance: baseUrl must be http(s), got ${url.protocol}`);
  }
  if (options.token !== undefined && options.token.length === 0) {
    throw new TypeError('runApiConformance: token must be non-empty when given');
  }
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    token: options.token,
    name: options.name ?? options.baseUrl,
    provider: options.provider,
    snapshotProvider: options.snapshotProvider,
    unsupportedProvider: options.unsupportedProvider,
    failNextCheckout: options.failNextCheckout,
    timeouts: { testMs: 30_000, hookMs: 120_000, ...options.timeouts },
  };
}
