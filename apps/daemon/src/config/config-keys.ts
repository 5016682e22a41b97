/**
 * Every setting an operator can give, with its type for RUNTIMECTL_* variables and --help.
 * A test proves each path exists in DaemonConfigSchema, so this table cannot drift from it.
 */
export interface ConfigKey {
  path: string;
  /** list: a TOML array, or a comma-separated RUNTIMECTL_* variable. */
  type: 'string' | 'integer' | 'boolean' | 'json' | 'list';
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
  { path: 'http.keep_alive_timeout_ms', type: 'integer', description: 'how long an idle connection stays open between requests (default 5000)' },
  { path: 'http.max_connections', type: 'integer', description: 'open connections at most; more are closed on arrival (default 4096)' },
  { path: 'http.max_connections_per_address', type: 'integer', description: 'open connections at most from one source address (default 256)' },
  { path: 'http.max_event_streams', type: 'integer', description: 'GET /events streams open at most; more get 429 too_many_event_streams (default 128)' },
  { path: 'http.max_event_streams_per_address', type: 'integer', description: 'event streams open at most from one source address (default 32)' },
  { path: 'http.event_stream_max_lifetime_ms', type: 'integer', description: 'an event stream ends after this long; clients reconnect with Last-Event-ID (default 3600000)' },
  { path: 'http.event_stream_write_timeout_ms', type: 'integer', description: 'an event stream whose reader takes no write for this long is disconnected (default 30000)' },
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
  { path: 'providers.local.enabled', type: 'boolean', description: 'the local provider (default true)' },
  { path: 'providers.local.root', type: 'string', description: 'workspaces directory (default <state_dir>/workspaces)' },
  { path: 'providers.local.shell', type: 'string', description: 'shell for commands (default /bin/sh)' },
  { path: 'providers.local.keep_workspaces', type: 'boolean', description: 'keep workspace directories after release (default false)' },
  { path: 'providers.local.workspace_quota_bytes', type: 'integer', description: 'disk bytes one workspace may use; 0 for no quota (default 10737418240 = 10 GiB)' },
  { path: 'providers.local.env', type: 'json', description: 'variables every local command gets (a table / JSON object)' },
  { path: 'providers.local.isolation', type: 'string', description: 'auto (default: namespace where the machine allows it, else none), namespace (required) or none' },
  { path: 'providers.local.network', type: 'boolean', description: 'with namespace isolation, false cuts commands off the network (loopback only; default true)' },
  { path: 'providers.fs.enabled', type: 'boolean', description: 'the fs provider: local workspaces with filesystem snapshots (default true)' },
  { path: 'providers.fs.root', type: 'string', description: 'fs workspaces directory, not the local one (default <state_dir>/fs/workspaces)' },
  { path: 'providers.fs.snapshots', type: 'string', description: 'fs snapshot store; same file system as root for copy-on-write checkouts (default <state_dir>/fs/snapshots)' },
  { path: 'providers.fs.compress', type: 'boolean', description: 'gzip snapshot blobs where that saves at least 10% (default true)' },
  { path: 'providers.fs.shell', type: 'string', description: 'shell for commands (default /bin/sh)' },
  { path: 'providers.fs.workspace_quota_bytes', type: 'integer', description: 'disk bytes one fs workspace may use; 0 for no quota (default 10737418240 = 10 GiB)' },
  { path: 'providers.fs.env', type: 'json', description: 'variables every fs command gets (a table / JSON object)' },
  { path: 'providers.fs.isolation', type: 'string', description: 'auto (default), namespace or none, as providers.local.isolation' },
  { path: 'providers.fs.network', type: 'boolean', description: 'with namespace isolation, false cuts commands off the network (default true)' },
  { path: 'providers.memory.enabled', type: 'boolean', description: 'the in-memory reference provider, with snapshots (default false)' },
  { path: 'providers.e2b.enabled', type: 'boolean', description: 'E2B sandboxes, with snapshots (default false)' },
  { path: 'providers.e2b.api_key_env', type: 'string', description: 'variable holding the E2B API key (default E2B_API_KEY; keys never go in files)' },
  { path: 'providers.e2b.api_url', type: 'string', description: 'E2B control-plane URL (default https://api.<domain>)' },
  { path: 'providers.e2b.sandbox_url', type: 'string', description: 'envd URL for every sandbox, e.g. an emulator (default per sandbox)' },
  { path: 'providers.e2b.domain', type: 'string', description: 'E2B domain (default e2b.app)' },
  { path: 'providers.e2b.template', type: 'string', description: 'template new sandboxes start from (default base)' },
  { path: 'providers.e2b.sandbox_timeout_ms', type: 'integer', description: 'sandbox timeout, refreshed while its runtime is open (default 600000)' },
  { path: 'providers.e2b.request_timeout_ms', type: 'integer', description: 'deadline of each E2B request (default 30000)' },
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
