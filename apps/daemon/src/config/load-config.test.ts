import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, envNameOf } from './config-keys';
import { ConfigError } from './config-error';
import { loadConfig } from './load-config';
import { temporaryDirectory } from '../../test/temporary-directory';

const tempFile = (name: string, text: string) => {
  const path = join(temporaryDirectory('runtimed-config-'), name);
  writeFileSync(path, text);
  return path;
};
const load = (env: NodeJS.ProcessEnv = {}, flags: Record<string, unknown> = {}, configPath?: string) =>
  loadConfig({ env: { HOME: '/home/someone', ...env }, flags, ...(configPath ? { configPath } : {}) });

describe('loadConfig', () => {
  it('embedded defaults: 127.0.0.1:7333, the fs provider by default (local beside it) and SQLite store in the state directory, no auth', () => {
    const config = load();
    expect(config.http).toMatchObject({ host: '127.0.0.1', port: 7333, body_limit_bytes: 10 * 1024 * 1024 });
    expect(config.stateDir).toBe('/home/someone/.local/state/runtimectl');
    expect(config.runtimes.default_provider).toBe('fs');
    // Which providers run is decided once their packages load (src/providers/load-providers.test.ts).
    expect(config.providers).toEqual({});
    expect(config.store).toMatchObject({ kind: 'sqlite', synchronous: 'full' });
    expect(config.storePath).toBe('/home/someone/.local/state/runtimectl/runtimectl.db');
    expect(config.bearerToken).toBeUndefined();
  });

  it('honours XDG_STATE_HOME', () => {
    expect(load({ XDG_STATE_HOME: '/var/state' }).stateDir).toBe('/var/state/runtimectl');
  });

  it('file, then RUNTIMECTL_* variables, then flags: later sources win', () => {
    const path = tempFile('c.toml', '[http]\nport = 8000\nhost = "127.0.0.2"\n[runtimes]\nexec_timeout_ms = 1000\n');
    const config = load({ RUNTIMECTL_HTTP_PORT: '9000', RUNTIMECTL_RUNTIMES_EXEC_TIMEOUT_MS: '2000' }, { 'http.port': 9100 }, path);
    expect(config.http.port).toBe(9100);
    expect(config.http.host).toBe('127.0.0.2');
    expect(config.runtimes.exec_timeout_ms).toBe(2000);
  });

  it('RUNTIMECTL_CONFIG names the file when --config is absent', () => {
    const path = tempFile('c.toml', '[http]\nport = 8123\n');
    expect(load({ RUNTIMECTL_CONFIG: path }).http.port).toBe(8123);
  });

  it('an unknown key is a startup error naming it', () => {
    const path = tempFile('c.toml', '[http]\nprot = 8000\n');
    expect(() => load({}, {}, path)).toThrow(/http\.prot: unknown key/);
  });

  it('a bad value is a startup error naming the key and what was expected', () => {
    const path = tempFile('c.toml', '[http]\nport = "eighty"\n');
    expect(() => load({}, {}, path)).toThrow(/http\.port: .*expected number/i);
    expect(() => load({ RUNTIMECTL_HTTP_PORT: 'eighty' })).toThrow(/RUNTIMECTL_HTTP_PORT: expected an integer/);
    expect(() => load({ RUNTIMECTL_HTTP_ALLOW_INSECURE_BIND: 'maybe' })).toThrow(ConfigError);
  });

  it('invalid TOML and a missing file are clear errors', () => {
    expect(() => load({}, {}, tempFile('bad.toml', '[http\n'))).toThrow(/not valid TOML/);
    expect(() => load({}, {}, '/nonexistent/runtimed.toml')).toThrow(/not found/);
  });

  it('reads the bearer token from the variable bearer_token_env names, and refuses a missing one', () => {
    const path = tempFile('c.toml', '[http.auth]\nbearer_token_env = "MY_TOKEN"\n');
    expect(load({ MY_TOKEN: 'a-very-long-secret-token' }, {}, path).bearerToken).toBe('a-very-long-secret-token');
    expect(() => load({}, {}, path)).toThrow(/MY_TOKEN is not set/);
    expect(() => load({ MY_TOKEN: 'short' }, {}, path)).toThrow(/at least 16/);
  });

  it('[[http.auth.keys]] become API keys (hashes, never tokens), and a malformed hash, no scope, an unknown scope or a name twice stop the start', () => {
    const hash = 'a'.repeat(64);
    const keys = (body: string) => load({}, {}, tempFile('k.toml', body)).apiKeys;
    expect(keys(`[[http.auth.keys]]\nname = "ci"\ntoken_sha256 = "${hash}"\nscopes = ["read", "exec"]\nexpires_at_ms = 1900000000000\n`)).toEqual([
      { name: 'ci', tokenSha256: hash, scopes: ['read', 'exec'], expiresAtMs: 1_900_000_000_000 },
    ]);
    expect(load().apiKeys).toEqual([]);
    expect(keys(`[[http.auth.keys]]\nname = "agent"\ntoken_sha256 = "${hash}"\nscopes = ["exec"]\nruntimes = ["rt-1"]\nconversations = ["c-1"]\n`)).toEqual([
      { name: 'agent', tokenSha256: hash, scopes: ['exec'], runtimes: { ids: ['rt-1'], conversations: ['c-1'] } },
    ]);
    expect(() => keys(`[[http.auth.keys]]\nname = "agent"\ntoken_sha256 = "${hash}"\nscopes = ["admin"]\nruntimes = ["rt-1"]\n`)).toThrow(/cannot be admin/);
    expect(keys(`[[http.auth.keys]]\nname = "own"\ntoken_sha256 = "${hash}"\nscopes = ["exec"]\nopened_runtimes = true\n`)).toEqual([{ name: 'own', tokenSha256: hash, scopes: ['exec'], runtimes: { openedBy: 'own' } }]);
    expect(() => keys(`[[http.auth.keys]]\nname = "own"\ntoken_sha256 = "${hash}"\nscopes = ["admin"]\nopened_runtimes = true\n`)).toThrow(/cannot be admin/);
    expect(() => keys(`[[http.auth.keys]]\nname = "ci"\ntoken_sha256 = "secret-token"\nscopes = ["read"]\n`)).toThrow(/token_sha256: the SHA-256 of the token/);
    expect(() => keys(`[[http.auth.keys]]\nname = "ci"\ntoken_sha256 = "${hash}"\nscopes = []\n`)).toThrow(/at least one scope/);
    expect(() => keys(`[[http.auth.keys]]\nname = "ci"\ntoken_sha256 = "${hash}"\nscopes = ["root"]\n`)).toThrow(/scopes/);
    const twice = `[[http.auth.keys]]\nname = "ci"\ntoken_sha256 = "${hash}"\nscopes = ["read"]\n[[http.auth.keys]]\nname = "ci"\ntoken_sha256 = "${'b'.repeat(64)}"\nscopes = ["read"]\n`;
    expect(() => keys(twice)).toThrow(/two keys have the same name/);
  });

  it('http.allowed_hosts comes from a TOML array, a comma-separated variable or repeated flags, and refuses a name with a port', () => {
    expect(load().http.allowed_hosts).toEqual([]);
    expect(load({}, {}, tempFile('a.toml', '[http]\nallowed_hosts = ["runtimed.internal", "[fd00::1]"]\n')).http.allowed_hosts).toEqual(['runtimed.internal', '[fd00::1]']);
    expect(load({ RUNTIMECTL_HTTP_ALLOWED_HOSTS: ' a.example, b.example ,' }).http.allowed_hosts).toEqual(['a.example', 'b.example']);
    expect(load({}, { 'http.allowed_hosts': ['c.example'] }).http.allowed_hosts).toEqual(['c.example']);
    expect(() => load({ RUNTIMECTL_HTTP_ALLOWED_HOSTS: 'a.example:7333' })).toThrow(/http\.allowed_hosts\.0: a host name without a port/);
  });

  it('connection limits: defaults that bound a trickled request and cap connections, and a headers timeout never above the request timeout', () => {
    expect(load().http).toMatchObject({
      request_timeout_ms: 30_000,
      headers_timeout_ms: 10_000,
      keep_alive_timeout_ms: 65_000,
      max_connections: 4_096,
      max_connections_per_address: 256,
      max_event_streams: 128,
      max_event_streams_per_address: 32,
      event_stream_max_lifetime_ms: 3_600_000,
      event_stream_write_timeout_ms: 30_000,
    });
    expect(load({ RUNTIMECTL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '32' }).http.max_connections_per_address).toBe(32);
    expect(() => load({ RUNTIMECTL_HTTP_REQUEST_TIMEOUT_MS: '5000' })).toThrow(/http\.headers_timeout_ms: must not exceed request_timeout_ms/);
  });

  it('[store] kind = "postgres" reads the database URL from the variable url_env names (RUNTIMECTL_DATABASE_URL by default)', () => {
    const url = 'postgres://app:s3cret-pw@db.internal:5432/runtimectl';
    const config = load({ RUNTIMECTL_DATABASE_URL: url, RUNTIMECTL_FLEET_SECRET: 's'.repeat(40) }, { 'store.kind': 'postgres' });
    expect(config.store).toMatchObject({ kind: 'postgres', url_env: 'RUNTIMECTL_DATABASE_URL', schema: 'runtimectl', pool_size: 10, statement_timeout_ms: 30_000 });
    expect(config.databaseUrl).toBe(url);
    const path = tempFile('pg.toml', '[store]\nkind = "postgres"\nurl_env = "TEAM_DB"\nschema = "team_a"\npool_size = 4\nstatement_timeout_ms = 5000\n');
    const custom = load({ TEAM_DB: url, RUNTIMECTL_FLEET_SECRET: 's'.repeat(40) }, {}, path);
    expect(custom.store).toMatchObject({ schema: 'team_a', pool_size: 4, statement_timeout_ms: 5000 });
    expect(custom.databaseUrl).toBe(url);
    expect(load({}, { 'store.kind': 'sqlite' }).databaseUrl).toBeUndefined();
  });

  it('store.connect_timeout_ms bounds how long a new PostgreSQL connection may take (default 5000; RUNTIMECTL_STORE_CONNECT_TIMEOUT_MS)', () => {
    const url = 'postgres://app:pw@db.internal:5432/runtimectl';
    const secret = { RUNTIMECTL_FLEET_SECRET: 's'.repeat(40) };
    expect(load({ RUNTIMECTL_DATABASE_URL: url, ...secret }, { 'store.kind': 'postgres' }).store.connect_timeout_ms).toBe(5_000);
    expect(load({ RUNTIMECTL_DATABASE_URL: url, RUNTIMECTL_STORE_CONNECT_TIMEOUT_MS: '60000', ...secret }, { 'store.kind': 'postgres' }).store.connect_timeout_ms).toBe(60_000);
    expect(() => load({ RUNTIMECTL_STORE_CONNECT_TIMEOUT_MS: '0' })).toThrow(/store\.connect_timeout_ms/);
  });

  it('a postgres store without its URL, with a URL that is not postgres://, or with a bad schema is refused naming the key, never echoing the URL', () => {
    expect(() => load({}, { 'store.kind': 'postgres' })).toThrow(
      new ConfigError('store.url_env: environment variable RUNTIMECTL_DATABASE_URL is not set or empty (it holds the PostgreSQL URL)'),
    );
    const wrong = () => load({ RUNTIMECTL_DATABASE_URL: 'mysql://u:hunter2@h/db' }, { 'store.kind': 'postgres' });
    expect(wrong).toThrow(ConfigError);
    expect(wrong).toThrow(/^store\.url_env: RUNTIMECTL_DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL$/);
    expect(() => load({ RUNTIMECTL_DATABASE_URL: 'postgres://h/db', RUNTIMECTL_STORE_SCHEMA: 'Team-A' }, { 'store.kind': 'postgres' })).toThrow(
      /store\.schema: a lower-case SQL identifier/,
    );
    expect(() => load({ RUNTIMECTL_STORE_POOL_SIZE: '0' })).toThrow(/store\.pool_size/);
  });

  it('disk bounds: bounded Idempotency-Key responses, from variables and flags', () => {
    const defaults = load();
    expect(defaults.http).toMatchObject({ idempotency_max_response_bytes: 4 * 1024 ** 2, idempotency_max_total_bytes: 128 * 1024 ** 2 });
    expect(load({ RUNTIMECTL_HTTP_IDEMPOTENCY_MAX_TOTAL_BYTES: '65536' }).http.idempotency_max_total_bytes).toBe(65_536);
  });

  it('fleet: no node id (a persisted random one), no advertised URL, 15 s leases and forwarding on by default', () => {
    expect(load().fleet).toEqual({ advertise_url: null, lease_ms: 15_000, forward: true, secret_env: 'RUNTIMECTL_FLEET_SECRET' });
    expect(load().fleetSecret).toBeUndefined();
  });

  it('fleet.secret_env names the variable holding the fleet secret (RUNTIMECTL_FLEET_SECRET by default), refused under 32 characters or equal to the bearer token, never echoed', () => {
    const secret = 'f'.repeat(31) + 'X';
    expect(load({ RUNTIMECTL_FLEET_SECRET: `  ${secret}\n` }).fleetSecret).toBe(secret);
    expect(load({ TEAM_FLEET: secret, RUNTIMECTL_FLEET_SECRET_ENV: 'TEAM_FLEET' }).fleetSecret).toBe(secret);
    const short = () => load({ RUNTIMECTL_FLEET_SECRET: 'short-secret-0123456789' });
    expect(short).toThrow(new ConfigError('fleet.secret_env: the secret in RUNTIMECTL_FLEET_SECRET must be at least 32 characters'));
    const sameAsToken = () => load({ RUNTIMECTL_FLEET_SECRET: secret, RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN: secret });
    expect(sameAsToken).toThrow(/^fleet\.secret_env: the secret in RUNTIMECTL_FLEET_SECRET must differ from the bearer token/);
    expect(sameAsToken).not.toThrow(secret);
  });

  it('a node on PostgreSQL refuses to start without the fleet secret (it may be one of a fleet), naming the key and the variable', () => {
    const url = 'postgres://app:pw@db.internal:5432/runtimectl';
    expect(() => load({ RUNTIMECTL_DATABASE_URL: url }, { 'store.kind': 'postgres' })).toThrow(
      /^fleet\.secret_env: environment variable RUNTIMECTL_FLEET_SECRET is not set or empty; a node on PostgreSQL needs the fleet's shared secret/,
    );
    expect(load({ RUNTIMECTL_DATABASE_URL: url, RUNTIMECTL_FLEET_SECRET: 's'.repeat(40) }, { 'store.kind': 'postgres' }).fleetSecret).toBe('s'.repeat(40));
  });

  it('fleet settings come from the file, RUNTIMECTL_FLEET_* variables and flags; a lease under 1 s, a bad node id or a URL that is not http(s) is refused', () => {
    const path = tempFile('c.toml', '[fleet]\nnode_id = "node-1"\nlease_ms = 5000\n');
    const config = load({ RUNTIMECTL_FLEET_ADVERTISE_URL: 'http://10.0.0.5:7333', RUNTIMECTL_FLEET_FORWARD: 'false' }, { 'fleet.node_id': 'node-2' }, path);
    expect(config.fleet).toEqual({ node_id: 'node-2', advertise_url: 'http://10.0.0.5:7333', lease_ms: 5000, forward: false, secret_env: 'RUNTIMECTL_FLEET_SECRET' });
    expect(() => load({ RUNTIMECTL_FLEET_LEASE_MS: '999' })).toThrow(/fleet\.lease_ms/);
    expect(() => load({ RUNTIMECTL_FLEET_NODE_ID: 'node 1' })).toThrow(/fleet\.node_id/);
    expect(() => load({ RUNTIMECTL_FLEET_ADVERTISE_URL: 'ftp://10.0.0.5' })).toThrow(/fleet\.advertise_url/);
  });

  it('runtimes.checkout_parallelism bounds the provider creates of one N-way checkout (default 8; RUNTIMECTL_RUNTIMES_CHECKOUT_PARALLELISM); 0 and 101 are refused', () => {
    expect(load().runtimes.checkout_parallelism).toBe(8);
    expect(load({ RUNTIMECTL_RUNTIMES_CHECKOUT_PARALLELISM: '16' }).runtimes.checkout_parallelism).toBe(16);
    expect(load({}, {}, tempFile('c.toml', '[runtimes]\ncheckout_parallelism = 3\n')).runtimes.checkout_parallelism).toBe(3);
    for (const value of ['0', '101']) expect(() => load({ RUNTIMECTL_RUNTIMES_CHECKOUT_PARALLELISM: value })).toThrow(/runtimes\.checkout_parallelism/);
  });

  it('runtimes.verify_restores is auto (each provider\'s default), always or never (RUNTIMECTL_RUNTIMES_VERIFY_RESTORES); anything else is refused', () => {
    expect(load().runtimes.verify_restores).toBe('auto');
    expect(load({ RUNTIMECTL_RUNTIMES_VERIFY_RESTORES: 'always' }).runtimes.verify_restores).toBe('always');
    expect(load({}, {}, tempFile('v.toml', '[runtimes]\nverify_restores = "never"\n')).runtimes.verify_restores).toBe('never');
    expect(() => load({ RUNTIMECTL_RUNTIMES_VERIFY_RESTORES: 'sometimes' })).toThrow(/runtimes\.verify_restores/);
  });

  it('runtimes.event_retention_ms bounds how long the event log keeps events (default 7 days; RUNTIMECTL_RUNTIMES_EVENT_RETENTION_MS); under a minute is refused', () => {
    expect(load().runtimes.event_retention_ms).toBe(604_800_000);
    expect(load({ RUNTIMECTL_RUNTIMES_EVENT_RETENTION_MS: '3600000' }).runtimes.event_retention_ms).toBe(3_600_000);
    expect(() => load({ RUNTIMECTL_RUNTIMES_EVENT_RETENTION_MS: '1000' })).toThrow(/runtimes\.event_retention_ms/);
  });

  it('[retention] sets the daemon-wide snapshot policy (RUNTIMECTL_RETENTION_*): no rule by default, a pass every minute; keep_last 0 and expire under a minute are refused', () => {
    expect(load().retention).toEqual({ interval_ms: 60_000 });
    const set = load({ RUNTIMECTL_RETENTION_KEEP_LAST: '5', RUNTIMECTL_RETENTION_EXPIRE_UNUSED_AFTER_MS: '86400000' }, {}, tempFile('c.toml', '[retention]\ninterval_ms = 5000\n'));
    expect(set.retention).toEqual({ keep_last: 5, expire_unused_after_ms: 86_400_000, interval_ms: 5_000 });
    expect(() => load({ RUNTIMECTL_RETENTION_KEEP_LAST: '0' })).toThrow(/retention\.keep_last/);
    expect(() => load({ RUNTIMECTL_RETENTION_EXPIRE_UNUSED_AFTER_MS: '1000' })).toThrow(/retention\.expire_unused_after_ms/);
  });

  it('runtimes.idle_pause_after_ms and runtimes.auto_resume set the daemon-wide idle policy (RUNTIMECTL_RUNTIMES_*): off by default; under a second is refused', () => {
    expect(load().runtimes).toMatchObject({ auto_resume: false });
    expect(load().runtimes.idle_pause_after_ms).toBeUndefined();
    const set = load({ RUNTIMECTL_RUNTIMES_AUTO_RESUME: 'true' }, {}, tempFile('i.toml', '[runtimes]\nidle_pause_after_ms = 900000\n'));
    expect(set.runtimes).toMatchObject({ idle_pause_after_ms: 900_000, auto_resume: true });
    expect(() => load({ RUNTIMECTL_RUNTIMES_IDLE_PAUSE_AFTER_MS: '10' })).toThrow(/runtimes\.idle_pause_after_ms/);
  });

  it('every documented key is a real setting with a RUNTIMECTL_* variable', () => {
    const sample = { string: 'x', integer: '1', number: '1.5', boolean: 'true', json: '{}', list: 'a,b' } as const;
    const special: Record<string, string> = { network: 'none', workspace_path: '/workspace', sandbox_ids: 'daemon' };
    // providers.<id>.package and .enabled are templates: src/providers/load-providers.test.ts proves them.
    for (const key of CONFIG_KEYS.filter((key) => !key.path.includes('<id>'))) {
      const value = key.path === 'store.kind' ? 'memory' : key.path === 'store.synchronous' ? 'normal' : key.path === 'runtimes.default_provider' ? 'local' : key.path === 'log.level' ? 'info' : key.path === 'providers.local.isolation' || key.path === 'providers.fs.isolation' ? 'none' : key.path === 'fleet.advertise_url' ? 'http://10.0.0.5:7333' : key.path === 'runtimes.verify_restores' ? 'always' : (special[key.path.split('.').at(-1)!] ?? sample[key.type]);
      const env = { [envNameOf(key.path)]: ['http.request_timeout_ms', 'runtimes.event_retention_ms', 'retention.expire_unused_after_ms'].includes(key.path) ? '60000' : key.path.endsWith('_ms') || key.path.endsWith('_bytes') ? '4096' : value };
      if (key.path === 'http.auth.bearer_token') env[envNameOf(key.path)] = 'a-sufficiently-long-token';
      if (key.path === 'http.auth.bearer_token_env') Object.assign(env, { x: 'a-sufficiently-long-token' });
      expect(() => load(env), key.path).not.toThrow();
    }
  });
});
