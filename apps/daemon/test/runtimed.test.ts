import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runtimedRefusal, startRuntimed, type RuntimedProcess } from './runtimed-process';
import { temporaryDirectory } from './temporary-directory';

const running: RuntimedProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((daemon) => daemon.stop()));
});

async function start(args: string[] = [], env: NodeJS.ProcessEnv = {}, stateDir?: string) {
  const daemon = await startRuntimed(args, env, stateDir);
  running.push(daemon);
  return daemon;
}

/** The default snapshot store on the start line: layers where overlayfs can be mounted, else copy and why. */
const DEFAULT_SNAPSHOTS = 'fs snapshots: (layers \\(copy-on-write overlay mounts\\)|copy \\(layers unavailable: [^)]+\\))';

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

describe('runtimed', () => {
  it('prints one start line with address, providers (fs the default), store, auth and the isolation of local and fs commands: network, identity, workspace path, limits', async () => {
    const daemon = await start();
    const isolation = (id: string) =>
      `${id} isolation: namespace \\(network (egress via (slirp4netns|pasta)|none: egress needs slirp4netns or pasta on the PATH [^;]*); commands as (uid \\d+ gid \\d+|this daemon's user \\([^)]*\\)); workspace /home/user/workspace; (limits [^;]*\\(cgroup [^)]*\\)|no limits: [^)]*)\\)`;
    expect(daemon.banner).toMatch(
      new RegExp(`^runtimed \\S+ listening on http://127\\.0\\.0\\.1:\\d+ · node: node_[0-9a-f]{32} · providers: local, fs \\(default\\) · store: sqlite /\\S+/runtimectl\\.db · auth: off · ${isolation('local')} · ${isolation('fs')} · ${DEFAULT_SNAPSHOTS} · console: http://127\\.0\\.0\\.1:\\d+/console/$`),
    );
    expect(daemon.banner).not.toMatch(/network host/);
  });

  it('says so on its start line when egress has no helper on the PATH: commands get no network, never the host\'s', async () => {
    const daemon = await start([], { PATH: '/nonexistent' });
    expect(daemon.banner).toContain('local isolation: namespace (network none: egress needs slirp4netns or pasta on the PATH');
    expect(daemon.banner).toContain('fs isolation: namespace (network none: egress needs slirp4netns or pasta on the PATH');
  });

  it('says when local and fs commands are not isolated, warns of the loopback API with the host network, and cuts their network with --local-network none', async () => {
    const none = await start(['--local-isolation', 'none']);
    expect(none.banner).toMatch(new RegExp(` · local isolation: none \\(isolation = "none" in the settings\\) · fs isolation: none \\(isolation = "none" in the settings\\) · ${DEFAULT_SNAPSHOTS} · console: \\S+$`));
    const host = await start(['--local-network', 'host']);
    expect(host.banner).toContain('(network host: commands can reach this API on loopback; set a bearer token or providers.local.network = "egress"; ');
    const offline = await start(['--local-network', 'none']);
    expect(offline.banner).toMatch(/ · local isolation: namespace \(network none; [^·]* · fs isolation: namespace \(network none; /);
    const api = `${offline.url}/api/v1/runtimes`;
    await post(`${api}/open`, { runtime_id: 'offline', conversation_id: 'c', sender_id: 's' });
    const port = new URL(offline.url).port;
    const exec = await post(`${api}/exec`, { runtime_id: 'offline', command: `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo reached || echo unreachable`, shell: '/bin/bash' });
    expect(Buffer.from(exec.body.stdout_base64, 'base64').toString()).toMatch(/unreachable\n$/);
    expect((await post(`${api}/close`, { runtime_id: 'offline' })).body).toMatchObject({ released_backend: true });
  });

  it("runs the README's first session on the default fs provider: open → write-file → exec → checkpoint → checkout → close", async () => {
    const daemon = await start();
    const api = `${daemon.url}/api/v1/runtimes`;
    const opened = await post(`${api}/open`, { runtime_id: 'demo', conversation_id: 'c1', sender_id: 'me' });
    expect(opened).toMatchObject({ status: 200, body: { created: true, runtime: { runtime_id: 'demo', status: 'idle' } } });
    const written = await post(`${api}/write-file`, { runtime_id: 'demo', path: 'hello.txt', content_base64: Buffer.from('hi\n').toString('base64') });
    expect(written.status).toBe(200);
    const exec = await post(`${api}/exec`, { runtime_id: 'demo', command: 'cat hello.txt; echo "$HOME" >&2' });
    expect(Buffer.from(exec.body.stdout_base64, 'base64').toString()).toBe('hi\n');
    const checkpoint = await post(`${api}/checkpoint`, { runtime_id: 'demo', name: 'first' });
    expect(checkpoint.body.checkpoint_id).toMatch(/^rtcp_/);
    const checkout = await post(`${api}/checkout`, { checkpoint_id: checkpoint.body.checkpoint_id });
    expect(checkout.status).toBe(200);
    const child = await post(`${api}/exec`, { runtime_id: checkout.body.runtime.runtime_id, command: 'cat hello.txt' });
    expect(Buffer.from(child.body.stdout_base64, 'base64').toString()).toBe('hi\n');
    const closed = await post(`${api}/close`, { runtime_id: 'demo' });
    expect(closed.body).toMatchObject({ runtime: { status: 'closed' }, released_backend: true });
  });

  it.skipIf(process.getuid?.() !== 0)('with providers.fs.snapshot_store = "layers" says so on its start line, and checkouts and resumes are overlay mounts of the checkpoint', async () => {
    const daemon = await start([], { RUNTIMECTL_PROVIDERS_FS_SNAPSHOT_STORE: 'layers' });
    expect(daemon.banner).toMatch(/ · fs snapshots: layers \(copy-on-write overlay mounts\) · console: \S+$/);
    const api = `${daemon.url}/api/v1/runtimes`;
    const text = (body: Record<string, any>) => Buffer.from(body.stdout_base64, 'base64').toString();
    await post(`${api}/open`, { runtime_id: 'layered', conversation_id: 'c1', sender_id: 'me' });
    await post(`${api}/exec`, { runtime_id: 'layered', command: 'mkdir -p src && echo one > src/a.txt' });
    const checkpoint = await post(`${api}/checkpoint`, { runtime_id: 'layered' });
    const checkout = await post(`${api}/checkout`, { checkpoint_id: checkpoint.body.checkpoint_id });
    const child = checkout.body.runtime.runtime_id as string;
    expect(text((await post(`${api}/exec`, { runtime_id: child, command: 'grep -c " /home/user/workspace overlay " /proc/self/mounts; cat src/a.txt' })).body)).toBe('1\none\n');
    await post(`${api}/exec`, { runtime_id: 'layered', command: 'echo two > src/a.txt' });
    expect((await post(`${api}/pause`, { runtime_id: 'layered' })).status).toBe(200);
    expect((await post(`${api}/resume`, { runtime_id: 'layered' })).status).toBe(200);
    expect(text((await post(`${api}/exec`, { runtime_id: 'layered', command: 'cat src/a.txt' })).body)).toBe('two\n');
    expect(text((await post(`${api}/exec`, { runtime_id: child, command: 'cat src/a.txt' })).body)).toBe('one\n');
    for (const runtime_id of [child, 'layered']) expect((await post(`${api}/close`, { runtime_id })).status).toBe(200);
  });

  it('serves snapshot semantics with --provider memory', async () => {
    const daemon = await start(['--provider', 'memory']);
    expect(daemon.banner).toMatch(/providers: local, fs, memory \(default\)/);
    const api = `${daemon.url}/api/v1/runtimes`;
    const { body } = await post(`${api}/open`, { conversation_id: 'c', sender_id: 's' });
    const checkpoint = await post(`${api}/checkpoint`, { runtime_id: body.runtime.runtime_id });
    const checkout = await post(`${api}/checkout`, { checkpoint_id: checkpoint.body.checkpoint_id });
    expect(checkout.status).toBe(200);
    expect(checkout.body.runtime.runtime_id).toMatch(/:checkout:[0-9a-f]{32}$/);
  });

  it('refuses read-file of a file over runtimes.read_file_max_bytes with 413, pointing to export, which streams it', async () => {
    const daemon = await start([], { RUNTIMECTL_RUNTIMES_READ_FILE_MAX_BYTES: '1024' });
    const api = `${daemon.url}/api/v1/runtimes`;
    await post(`${api}/open`, { runtime_id: 'big', conversation_id: 'c', sender_id: 's' });
    await post(`${api}/write-file`, { runtime_id: 'big', path: 'big.bin', content_base64: Buffer.alloc(1025).toString('base64') });
    const read = await post(`${api}/read-file`, { runtime_id: 'big', path: 'big.bin' });
    expect(read).toMatchObject({ status: 413, body: { code: 'payload_too_large', error: expect.stringContaining('export') } });
    const exported = await fetch(`${api}/export`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ runtime_id: 'big', path: 'big.bin' }) });
    expect((await exported.arrayBuffer()).byteLength).toBe(1025);
  });

  it('exits 0 on SIGTERM and SIGINT', async () => {
    const first = await startRuntimed();
    expect(await first.stop('SIGTERM')).toBe(0);
    const second = await startRuntimed();
    expect(await second.stop('SIGINT')).toBe(0);
  });

  it('keeps its node id across a restart, names it in the banner, lists itself in /api/v1/nodes and answers /api/v1/ready', async () => {
    const stateDir = temporaryDirectory('runtimed-state-');
    // No isolation probe: these starts are about the node, and the probe is most of a start.
    const quick = ['--local-isolation', 'none'];
    const first = await startRuntimed(quick, {}, stateDir);
    const nodeId = /· node: (\S+) ·/.exec(first.banner)![1]!;
    const nodes = (await (await fetch(`${first.url}/api/v1/nodes`)).json()) as { nodes: Array<Record<string, unknown>> };
    expect(nodes.nodes).toEqual([expect.objectContaining({ node_id: nodeId, alive: true, advertise_url: null })]);
    expect(await (await fetch(`${first.url}/api/v1/ready`)).json()).toEqual({ status: 'ready', node_id: nodeId });
    expect(await first.stop()).toBe(0);
    const second = await start(quick, {}, stateDir);
    expect(second.banner).toContain(`· node: ${nodeId} ·`);
    const named = await start([...quick, '--node-id', 'edge-1', '--advertise-url', 'http://10.0.0.5:7333']);
    expect(named.banner).toContain('· node: edge-1 ·');
    const metrics = await (await fetch(`${named.url}/metrics`)).text();
    expect(metrics).toMatch(/^runtimectl_node_info\{node_id="edge-1",version="[^"]+"\} 1$/m);
  });

  it('requires the bearer token when auth is configured, except for health', async () => {
    const daemon = await start(['--local-network', 'host'], { RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'SECRET', SECRET: 'runtimed-test-token-123' });
    // With a token, the host network's loopback API needs no warning: a command cannot read the token.
    expect(daemon.banner).toMatch(/auth: bearer · local isolation: namespace \(network host; [^·]* · fs isolation: namespace \(network host; /);
    expect((await fetch(`${daemon.url}/api/v1/health`)).status).toBe(200);
    const denied = await fetch(`${daemon.url}/api/v1/runtimes`);
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const allowed = await fetch(`${daemon.url}/api/v1/runtimes`, { headers: { authorization: 'Bearer runtimed-test-token-123' } });
    expect(allowed.status).toBe(200);
    expect(daemon.stderr()).not.toContain('runtimed-test-token-123');
  });

  it('serves [[http.auth.keys]] from its config: a read-only key reads and is refused 403 naming the scope, the bearer token stays admin', async () => {
    const dir = temporaryDirectory('runtimed-keys-');
    const file = join(dir, 'runtimed.toml');
    const readerToken = 'reader-token-0123456789abcdef';
    writeFileSync(
      file,
      `[http]\nport = 0\n[[http.auth.keys]]\nname = "dashboard"\ntoken_sha256 = "${createHash('sha256').update(readerToken).digest('hex')}"\nscopes = ["read"]\n`,
    );
    const daemon = await start(['--config', file], { RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'SECRET', SECRET: 'runtimed-test-token-123' });
    expect(daemon.banner).toContain('auth: bearer + 1 API key');
    const reader = { authorization: `Bearer ${readerToken}` };
    const admin = { authorization: 'Bearer runtimed-test-token-123' };
    const api = `${daemon.url}/api/v1/runtimes`;
    expect((await post(`${api}/open`, { runtime_id: 'keyed', conversation_id: 'c', sender_id: 's' }, admin)).status).toBe(200);
    expect((await fetch(`${api}/keyed`, { headers: reader })).status).toBe(200);
    const refused = await post(`${api}/exec`, { runtime_id: 'keyed', command: 'true' }, reader);
    expect(refused).toMatchObject({ status: 403, body: { code: 'forbidden', details: { scope: 'exec', key: 'dashboard' } } });
    expect((await post(`${api}/close`, { runtime_id: 'keyed' }, admin)).status).toBe(200);
    expect(daemon.stderr()).not.toContain(readerToken);
  });

  it('refuses a non-loopback address without auth and says why; --allow-insecure-bind overrides', async () => {
    const refused = await runtimedRefusal(['--host', '0.0.0.0', '--port', '0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refusing to listen on 0\.0\.0\.0 without authentication/);
    const allowed = await start(['--host', '0.0.0.0', '--allow-insecure-bind']);
    expect(allowed.banner).toMatch(/listening on http:\/\/0\.0\.0\.0:\d+/);
  });

  it('stops at start on an unknown config key or a bad value, naming it', async () => {
    const dir = temporaryDirectory('runtimed-config-');
    const file = join(dir, 'runtimed.toml');
    writeFileSync(file, '[http]\nport = 0\n[providers.local]\nshel = "/bin/bash"\n');
    const unknown = await runtimedRefusal(['--config', file]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/providers\.local\.shel: unknown key/);
    const bad = await runtimedRefusal(['--port', '0'], { RUNTIMECTL_RUNTIMES_EXEC_TIMEOUT_MS: 'soon' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/RUNTIMECTL_RUNTIMES_EXEC_TIMEOUT_MS: expected an integer/);
  });

  it('stops at start on a bearer token no request could present (whitespace or control characters) or an empty token variable, naming the setting', async () => {
    const spaced = await runtimedRefusal(['--port', '0'], { RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN: 'a sufficiently long token' });
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toMatch(/http\.auth\.bearer_token: .*whitespace/);
    const viaVariable = await runtimedRefusal(['--port', '0'], {
      RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'MY_TOKEN',
      MY_TOKEN: 'first-half-of-it\tsecond-half',
    });
    expect(viaVariable.code).toBe(2);
    expect(viaVariable.stderr).toMatch(/http\.auth\.bearer_token_env: .*MY_TOKEN.*whitespace/);
    const empty = await runtimedRefusal(['--port', '0'], { RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN is set but empty/);
    const emptyName = await runtimedRefusal(['--port', '0'], { RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: '' });
    expect(emptyName.code).toBe(2);
    expect(emptyName.stderr).toMatch(/RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV is set but empty/);
  });

  it('caps event streams per address as http.max_event_streams_per_address says: the stream over it gets 429 too_many_event_streams', async () => {
    const daemon = await start(['--local-isolation', 'none'], { RUNTIMECTL_HTTP_MAX_EVENT_STREAMS_PER_ADDRESS: '2' });
    const controller = new AbortController();
    const open = () => fetch(`${daemon.url}/api/v1/events`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    try {
      expect((await open()).status).toBe(200);
      expect((await open()).status).toBe(200);
      const refused = await open();
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { code: string }).code).toBe('too_many_event_streams');
      expect((await fetch(`${daemon.url}/api/v1/health`)).status).toBe(200);
    } finally {
      controller.abort();
    }
  });

  it('--help documents every setting and exits 0', async () => {
    const help = await runtimedRefusal(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV/);
    expect(help.stdout).toMatch(/--allow-insecure-bind/);
  });
});
