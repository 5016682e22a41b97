import { ADMIN_NOT_RUNTIME_SCOPED, ApiKeyGrantSchema, ApiKeyNameSchema, MIN_IDLE_PAUSE_AFTER_MS } from '@runtimectl/core';
import { POSTGRES_SCHEMA_NAME, POSTGRES_SCHEMA_NAME_RULE } from '@runtimectl/store-postgres';
import { z } from 'zod';
import { WebhooksSchema } from './webhook-schema';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MiB = 1024 * 1024;

/**
 * What a bearer token may hold: visible ASCII. A client sends `Authorization: Bearer <token>`
 * and the server splits the header on whitespace, so a token with a space (or a control or
 * non-ASCII character, which headers do not carry as written) could never be presented: auth
 * would be on and nothing could pass it.
 */
export const BEARER_TOKEN_CHARACTERS = /^[\x21-\x7e]+$/;
export const BEARER_TOKEN_CHARACTERS_RULE =
  'visible ASCII characters only: no whitespace, control or non-ASCII characters (no request could present such a token)';

/**
 * An API key: a name, the SHA-256 of its token (the file holds no secret: `runtimectl keys new`
 * makes a token and prints both), what it may do, and optionally until when.
 */
const ApiKeySchema = ApiKeyGrantSchema.extend({
  name: ApiKeyNameSchema,
  token_sha256: z.string().regex(/^[0-9a-f]{64}$/, 'the SHA-256 of the token: 64 lowercase hex digits'),
}).refine(ADMIN_NOT_RUNTIME_SCOPED.check, { message: ADMIN_NOT_RUNTIME_SCOPED.message });

const AuthSchema = z
  .strictObject({
    /** The token itself (prefer bearer_token_env: config files get copied around). */
    bearer_token: z
      .string()
      .min(16, 'at least 16 characters')
      .regex(BEARER_TOKEN_CHARACTERS, BEARER_TOKEN_CHARACTERS_RULE)
      .optional(),
    /** Name of the environment variable holding the token. */
    bearer_token_env: z.string().regex(ENV_NAME, 'an environment variable name').optional(),
    /** `[[http.auth.keys]]`: API keys with scopes, besides (or instead of) the bearer token, an admin key. */
    keys: z.array(ApiKeySchema).max(10_000).optional(),
  })
  .refine((auth) => !(auth.bearer_token && auth.bearer_token_env), {
    message: 'give bearer_token or bearer_token_env, not both',
  })
  .refine((auth) => new Set(auth.keys?.map((key) => key.name)).size === (auth.keys?.length ?? 0), { message: 'two keys have the same name' })
  .refine((auth) => new Set(auth.keys?.map((key) => key.token_sha256)).size === (auth.keys?.length ?? 0), { message: 'two keys have the same token' });

/** A host name or IP address as a `Host` header names it, without a port; IPv6 in brackets. */
const HOST_NAME = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)$/;

const HttpSchema = z
  .strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.int().min(0).max(65535).default(7333),
  body_limit_bytes: z.int().min(1024).max(1024 * MiB).default(10 * MiB),
  allow_insecure_bind: z.boolean().default(false),
  shutdown_timeout_ms: z.int().min(0).max(600_000).default(10_000),
  idempotency_retention_ms: z.int().min(1000).max(30 * 86_400_000).default(86_400_000),
  /** Idempotency-Key responses: a bigger one is not kept (a retry gets 410), and the oldest go beyond the total. */
  idempotency_max_response_bytes: z.int().min(1024).max(1024 * MiB).default(4 * MiB),
  idempotency_max_total_bytes: z.int().min(1024).max(64 * 1024 * MiB).default(128 * MiB),
  /** Without auth, `Host` names served besides loopback ones (DNS rebinding); ignored with auth. */
  allowed_hosts: z.array(z.string().regex(HOST_NAME, 'a host name without a port, e.g. runtimed.internal')).default([]),
  /** Hostile callers: a trickled request is cut off, idle sockets closed, connections capped. */
  request_timeout_ms: z.int().min(100).max(3_600_000).default(30_000),
  headers_timeout_ms: z.int().min(100).max(3_600_000).default(10_000),
  keep_alive_timeout_ms: z.int().min(100).max(3_600_000).default(65_000),
  max_connections: z.int().min(1).max(1_000_000).default(4_096),
  max_connections_per_address: z.int().min(1).max(1_000_000).default(256),
  /** Event streams (GET /events) last: capped in all and per address, ended after a lifetime, cut off when their reader stalls. */
  max_event_streams: z.int().min(1).max(1_000_000).default(128),
  max_event_streams_per_address: z.int().min(1).max(1_000_000).default(32),
  event_stream_max_lifetime_ms: z.int().min(1_000).max(7 * 86_400_000).default(3_600_000),
  event_stream_write_timeout_ms: z.int().min(100).max(3_600_000).default(30_000),
  /** The web console at /console/: its files are public and hold no data; what it shows comes from the API under the key entered. */
  console: z.boolean().default(true),
  auth: AuthSchema.optional(),
})
  .refine((http) => http.headers_timeout_ms <= http.request_timeout_ms, {
    path: ['headers_timeout_ms'],
    message: 'must not exceed request_timeout_ms',
  });

const StoreSchema = z.strictObject({
  kind: z.enum(['memory', 'sqlite', 'postgres']).default('sqlite'),
  /** SQLite file; default <state_dir>/runtimectl.db */
  path: z.string().min(1).optional(),
  /** full: an acknowledged write survives power loss too; normal: a process kill (faster). */
  synchronous: z.enum(['full', 'normal']).default('full'),
  /** PostgreSQL: the variable holding the URL (it holds a password, so it never goes in files). */
  url_env: z.string().regex(ENV_NAME, 'an environment variable name').default('RUNTIMECTL_DATABASE_URL'),
  /** PostgreSQL: the schema of the store's tables (several installations can share a database). */
  schema: z.string().regex(POSTGRES_SCHEMA_NAME, POSTGRES_SCHEMA_NAME_RULE).default('runtimectl'),
  pool_size: z.int().min(1).max(1_000).default(10),
  statement_timeout_ms: z.int().min(100).max(3_600_000).default(30_000),
  connect_timeout_ms: z.int().min(100).max(600_000).default(5_000),
});

/** A provider id: the key of its `[providers.<id>]` section, in records and the API. */
export const PROVIDER_ID = /^[a-z][a-z0-9_]{0,31}$/;
export const PROVIDER_ID_RULE = 'lowercase letters, digits and "_" (at most 32), starting with a letter';

/**
 * One `[providers.<id>]` section: the daemon's own keys (`package`, `enabled`) and the provider's
 * settings, which the provider package's schema validates once the package is loaded
 * (src/providers/load-providers.ts).
 */
const ProviderSectionSchema = z.looseObject({
  /** The npm package (or a path, relative to the config file) whose default export defines the provider. */
  package: z.string().min(1).optional(),
  enabled: z.boolean().optional(),
});
export type ProviderSection = z.infer<typeof ProviderSectionSchema>;

const ProvidersSchema = z.record(z.string().regex(PROVIDER_ID, PROVIDER_ID_RULE), ProviderSectionSchema);

const RuntimesSchema = z.strictObject({
  default_provider: z.string().min(1).default('fs'),
  exec_timeout_ms: z.int().min(1).max(86_400_000).default(300_000),
  exec_max_output_bytes: z.int().min(1024).max(64 * MiB).default(MiB),
  read_file_max_bytes: z.int().min(1024).max(256 * MiB).default(8 * MiB),
  provider_call_timeout_ms: z.int().min(100).max(3_600_000).default(120_000),
  /** Provider creates one N-way checkout (or fork) runs at once; a checkout has at most 100 children. */
  checkout_parallelism: z.int().min(1).max(100).default(8),
  /** Events older than this are pruned from the event log (by one node of a fleet); at least a minute, default 7 days. */
  event_retention_ms: z.int().min(60_000).max(Number.MAX_SAFE_INTEGER).default(7 * 86_400_000),
  /** Whether a runtime closed because its TTL passed (open's expires_at_ms / max_lifetime_ms) keeps its snapshots. */
  expiry_keep_snapshots: z.boolean().default(false),
  /** Pause a runtime after this long without an operation (where its provider can pause); default never. Runtimes may override it. */
  idle_pause_after_ms: z.int().min(MIN_IDLE_PAUSE_AFTER_MS).max(Number.MAX_SAFE_INTEGER).optional(),
  /** An operation on a paused runtime resumes it first (default: runtime_paused). Runtimes may override it. */
  auto_resume: z.boolean().default(false),
  /** Whether checkout and resume verify restored workspaces for runtimes without their own `verify`: auto = each provider's default. */
  verify_restores: z.enum(['auto', 'always', 'never']).default('auto'),
});

/**
 * Snapshot retention (docs/config.md "Retention"): the daemon's policy, which runtimes may
 * override at open or update. No rule set: nothing is deleted by policy.
 */
const RetentionSchema = z.strictObject({
  /** Keep the snapshots of each runtime's newest N snapshotted checkpoints. */
  keep_last: z.int().min(1).max(1_000_000).optional(),
  /** Delete snapshots not used (made, checked out, resumed) for this long (beyond keep_last's window). */
  expire_unused_after_ms: z.int().min(60_000).max(Number.MAX_SAFE_INTEGER).optional(),
  /** How often the policy passes run (TTL closes, then retention), each node for the runtimes it acts for. */
  interval_ms: z.int().min(1_000).max(86_400_000).default(60_000),
});

/** A node id: what other nodes, metrics and Idempotency-Key claims call this daemon. */
export const NODE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** This daemon as one node of a fleet (several daemons on one PostgreSQL). */
const FleetSchema = z.strictObject({
  /** Default: a random id kept in <state_dir>/node-id, so a restart keeps it. */
  node_id: z.string().regex(NODE_ID, 'letters, digits, ".", "_", "-" (at most 64), starting with a letter or digit').optional(),
  /** Where other nodes forward requests for this node's runtimes; default none (they answer runtime_on_other_node). */
  advertise_url: z
    .url({ protocol: /^https?$/, error: 'an http:// or https:// URL, e.g. http://10.0.0.5:7333' })
    .nullable()
    .default(null),
  /** A runtime's lease (and a node's liveness) lapses this long after its last renewal. */
  lease_ms: z.int().min(1_000).max(600_000).default(15_000),
  /** Forward requests for runtimes home on another node there; false: answer runtime_on_other_node. */
  forward: z.boolean().default(true),
  /** The variable holding the fleet's shared secret (nodes authenticate each other with it; required on PostgreSQL). */
  secret_env: z.string().regex(ENV_NAME, 'an environment variable name').default('RUNTIMECTL_FLEET_SECRET'),
});

const LogSchema = z.strictObject({
  level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** The whole daemon configuration: the TOML file, then RUNTIMECTL_* variables, then flags. */
export const DaemonConfigSchema = z
  .strictObject({
    /** Where the daemon keeps its state; default $XDG_STATE_HOME/runtimectl or ~/.local/state/runtimectl */
    state_dir: z.string().min(1).optional(),
    http: HttpSchema.prefault({}),
    store: StoreSchema.prefault({}),
    providers: ProvidersSchema.default({}),
    runtimes: RuntimesSchema.prefault({}),
    retention: RetentionSchema.prefault({}),
    fleet: FleetSchema.prefault({}),
    log: LogSchema.prefault({}),
    /** `[[webhooks]]`: receivers of the event log (see docs/config.md). */
    webhooks: WebhooksSchema,
  });

export type DaemonConfig = z.infer<typeof DaemonConfigSchema>;
