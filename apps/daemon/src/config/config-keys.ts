/**
 * Every setting an operator can give, with its type for RUNTIMECTL_* variables and --help.
 * A test proves each path exists in DaemonConfigSchema, so this table cannot drift from it.
 */
export interface ConfigKey {
  path: string;
  /** list: a TOML array, or a comma-separated RUNTIMECTL_* variable. */
  type: 'string' | 'integer' | 'number' | 'boolean' | 'json' | 'list';
  description: string;
}

export const CONFIG_KEYS: readonly ConfigKey[] = [
  { path: 'state_dir', type: 'string', description: 'state directory (default $XDG_STATE_HOME/runtimectl or ~/.local/state/runtimectl)' },
  { path: 'http.host', type: 'string', description: 'address to listen on (default 127.0.0.1)' },
  { path: 'http.port', type: 'integer', description: 'port (default 7333; 0 picks a free one)' },
  { path: 'http.body_limit_bytes', type: 'integer', description: 'largest request body (default 10485760)' },
  { path: 'http.allow_insecure_bind', type: 'boolean', description: 'allow a non-loopback address without auth (default false)' },
  { path: 'http.shutdown_timeout_ms', type: 'integer', description: 'how long in-flight requests may finish on SIGTERM (default 10000)' },
  { path: 'http.idempotency_retention_ms', type: 'integer', description: 'how long responses are kept for Idempotency-Key retries (default 86400000)' },
  { path: 'http.idempotency_max_response_bytes', type: 'integer', description: 'largest response kept for Idempotency-Key retries (default 4194304)' },
  { path: 'http.idempotency_max_total_bytes', type: 'integer', description: 'responses kept for Idempotency-Key retries in all; oldest evicted first (default 134217728)' },
  { path: 'http.allowed_hosts', type: 'list', description: 'without auth, Host names served besides loopback ones (comma-separated; default none)' },
  { path: 'http.request_timeout_ms', type: 'integer', description: 'longest time to receive a whole request, headers and body (default 30000)' },
  { path: 'http.headers_timeout_ms', type: 'integer', description: 'longest time to receive request headers, at most request_timeout_ms (default 10000)' },
  { path: 'http.keep_alive_timeout_ms', type: 'integer', description: 'how long an idle connection stays open between requests (default 65000: longer than clients keep theirs)' },
  { path: 'http.max_connections', type: 'integer', description: 'open connections at most; more are closed on arrival (default 4096)' },
  { path: 'http.max_connections_per_address', type: 'integer', description: 'open connections at most from one source address (default 256)' },
  { path: 'http.max_event_streams', type: 'integer', description: 'GET /events streams open at most; more get 429 too_many_event_streams (default 128)' },
  { path: 'http.max_event_streams_per_address', type: 'integer', description: 'event streams open at most from one source address (default 32)' },
  { path: 'http.event_stream_max_lifetime_ms', type: 'integer', description: 'an event stream ends after this long; clients reconnect with Last-Event-ID (default 3600000)' },
  { path: 'http.event_stream_write_timeout_ms', type: 'integer', description: 'an event stream whose reader takes no write for this long is disconnected (default 30000)' },
  { path: 'http.console', type: 'boolean', description: 'serve the web console at /console/ (default true; its data comes from the API under the key entered)' },
  { path: 'http.auth.bearer_token', type: 'string', description: 'require this bearer token (16+ characters)' },
  { path: 'http.auth.bearer_token_env', type: 'string', description: 'require the bearer token held by this environment variable' },
  { path: 'store.kind', type: 'string', description: 'sqlite (default: durable), postgres (a shared database) or memory (lost on exit)' },
  { path: 'store.path', type: 'string', description: 'SQLite file (default <state_dir>/runtimectl.db)' },
  { path: 'store.synchronous', type: 'string', description: 'full (default: survives power loss) or normal (survives a process kill; faster)' },
  { path: 'store.url_env', type: 'string', description: 'postgres: variable holding the database URL (default RUNTIMECTL_DATABASE_URL; URLs hold passwords, never put them in files)' },
  { path: 'store.schema', type: 'string', description: 'postgres: schema of the tables, created if missing (default runtimectl)' },
  { path: 'store.pool_size', type: 'integer', description: 'postgres: connections in the pool (default 10)' },
  { path: 'store.statement_timeout_ms', type: 'integer', description: 'postgres: any statement is cancelled after this long (default 30000)' },
  { path: 'store.connect_timeout_ms', type: 'integer', description: 'postgres: a new connection that takes longer fails with store_unavailable (default 5000)' },
  { path: 'providers.<id>.package', type: 'string', description: 'the npm package (or a path relative to the config file) that defines provider <id>; first-party ids (local, fs, memory, e2b) need none' },
  { path: 'providers.<id>.enabled', type: 'boolean', description: 'run provider <id> (default: true for local, fs and a section naming a package; false for memory and e2b)' },
  { path: 'runtimes.default_provider', type: 'string', description: 'provider used when open names none (default fs)' },
  { path: 'runtimes.exec_timeout_ms', type: 'integer', description: 'exec timeout when a request gives none (default 300000)' },
  { path: 'runtimes.exec_max_output_bytes', type: 'integer', description: 'bytes kept of stdout and of stderr (default 1048576)' },
  { path: 'runtimes.read_file_max_bytes', type: 'integer', description: 'largest file read-file answers; export streams bigger ones (default 8388608)' },
  { path: 'runtimes.checkout_parallelism', type: 'integer', description: 'provider creates one N-way checkout or fork runs at once, 1-100 (default 8)' },
  { path: 'runtimes.event_retention_ms', type: 'integer', description: 'events older than this are pruned from the event log, at least 60000 (default 604800000: 7 days)' },
  { path: 'runtimes.expiry_keep_snapshots', type: 'boolean', description: 'a runtime closed because its TTL passed keeps its snapshots (default false)' },
  { path: 'runtimes.idle_pause_after_ms', type: 'integer', description: 'pause a runtime after this long without an operation, where its provider can pause; at least 1000 (default: never)' },
  { path: 'runtimes.auto_resume', type: 'boolean', description: 'an operation on a paused runtime resumes it first instead of answering runtime_paused (default false)' },
  { path: 'runtimes.verify_restores', type: 'string', description: 'verify restored workspaces against checkpoint manifests: auto (each provider\'s default), always or never; a runtime\'s own verify wins (default auto)' },
  { path: 'runtimes.provider_call_timeout_ms', type: 'integer', description: 'deadline of provider control calls (default 120000)' },
  { path: 'retention.keep_last', type: 'integer', description: 'keep the snapshots of each runtime\'s newest N snapshotted checkpoints (default: no such rule)' },
  { path: 'retention.expire_unused_after_ms', type: 'integer', description: 'delete snapshots unused this long, beyond keep_last\'s window; at least 60000 (default: no such rule)' },
  { path: 'retention.interval_ms', type: 'integer', description: 'how often the policy passes run: TTL closes, then retention (default 60000)' },
  { path: 'fleet.node_id', type: 'string', description: 'this node\'s id in the fleet (default a random one kept in <state_dir>/node-id)' },
  { path: 'fleet.advertise_url', type: 'string', description: 'URL other nodes forward this node\'s runtimes\' requests to (default none: no forwarding here)' },
  { path: 'fleet.lease_ms', type: 'integer', description: 'a runtime lease and a node\'s liveness lapse this long after renewal (default 15000, at least 1000)' },
  { path: 'fleet.forward', type: 'boolean', description: 'forward requests for runtimes home on another node there (default true)' },
  { path: 'fleet.secret_env', type: 'string', description: 'variable holding the secret fleet nodes authenticate each other with, 32+ characters; required with store.kind postgres (default RUNTIMECTL_FLEET_SECRET)' },
  { path: 'log.level', type: 'string', description: 'fatal, error, warn, info, debug, trace or silent (default info)' },
];

/** RUNTIMECTL_HTTP_PORT for http.port. */
export function envNameOf(path: string): string {
  return `RUNTIMECTL_${path.replace(/\./g, '_').toUpperCase()}`;
}
