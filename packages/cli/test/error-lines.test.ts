import { createServer } from 'node:net';
import { createRuntimectlClient, type RuntimectlClient } from '@runtimectl/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRunOptions } from './cli-process';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';

const TOKEN = 'cli-test-token-0123456789abcdef';
let daemon: RuntimedProcess;
let authDaemon: RuntimedProcess;
let client: RuntimectlClient;
let at: CliRunOptions;

beforeAll(async () => {
  [daemon, authDaemon] = await Promise.all([
    startRuntimed(),
    startRuntimed(['--provider', 'memory'], { RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'CLI_TEST_TOKEN', CLI_TEST_TOKEN: TOKEN }),
  ]);
  client = createRuntimectlClient({ baseUrl: daemon.url });
  at = { url: daemon.url };
});

afterAll(() => Promise.all([daemon?.stop(), authDaemon?.stop()]));

/** A loopback port nothing listens on: bound, then released. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe.concurrent('error lines and exit codes', () => {
  it('an unreachable daemon exits 3 with how to start it and RUNTIMECTL_URL', async () => {
    const url = await closedPortUrl();
    const result = await runCli(['ls'], { url });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `runtimectl: the runtimectl daemon is not reachable at ${url} (ECONNREFUSED). ` +
        'Start it with `runtimed` (or `npm start` in a runtimectl checkout), or point RUNTIMECTL_URL or --url at a running daemon.\n',
    );
  });

  it('a daemon that dies during a request: the operation may have run, and the same command with its Idempotency-Key completes it once', async () => {
    // Reads one request, then dies with it: the connection closes unanswered, and retries are refused.
    const keys: string[] = [];
    const dying = createServer((socket) =>
      socket.once('data', (chunk: Buffer) => {
        keys.push(/^idempotency-key: (\S+)\r$/im.exec(chunk.toString())?.[1] ?? '');
        socket.destroy();
        dying.close();
      }),
    );
    await new Promise<void>((resolve) => dying.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(dying.address() as { port: number }).port}`;
    const result = await runCli(['checkpoint', 'demo', '--json'], { url });
    expect(result.code).toBe(3);
    const key = keys[0]!;
    expect(key).toMatch(/^\S{8,}$/);
    expect(result.stderr).toBe(
      `runtimectl: the daemon at ${url} stopped answering during the request and is not reachable now (ECONNREFUSED): the operation may have run. ` +
        `Once the daemon is back, run the same command with \`--idempotency-key ${key}\`: the daemon carries out a request with a key it has seen only once, so this completes it or gives its answer, never runs it twice.\n`,
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ code: 'daemon_unreachable', details: { url, request_may_have_run: true, idempotency_key: key }, exit_code: 3 });
  });

  it('--idempotency-key sends that key with the command\'s request', async () => {
    const keys: string[] = [];
    const recording = createServer((socket) =>
      socket.once('data', (chunk: Buffer) => {
        keys.push(/^idempotency-key: (\S+)\r$/im.exec(chunk.toString())?.[1] ?? '');
        const body = JSON.stringify({ error: 'runtime demo not found', code: 'runtime_not_found', details: { runtime_id: 'demo' } });
        socket.end(`HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
      }),
    );
    await new Promise<void>((resolve) => recording.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(recording.address() as { port: number }).port}`;
    try {
      expect((await runCli(['--idempotency-key', 'retry-of-7f3a', 'checkpoint', 'demo'], { url })).code).toBe(4);
      expect(keys).toEqual(['retry-of-7f3a']);
      const bad = await runCli(['--idempotency-key', 'has space', 'checkpoint', 'demo'], { url });
      expect(bad.code).toBe(2);
    } finally {
      recording.close();
    }
  });

  it('--json prints a failure as its one JSON document on stdout, with the same exit code and stderr line', async () => {
    const url = await closedPortUrl();
    const unreachable = await runCli(['--json', 'health'], { url });
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr.split('\n')).toHaveLength(2);
    expect(JSON.parse(unreachable.stdout)).toEqual({
      error: unreachable.stderr.replace(/^runtimectl: /, '').trimEnd(),
      code: 'daemon_unreachable',
      details: { url },
      exit_code: 3,
    });

    const missing = await runCli(['--json', 'show', 'no-such-runtime'], at);
    expect(missing.code).toBe(4);
    const document = JSON.parse(missing.stdout);
    expect(document).toMatchObject({
      error: 'runtime no-such-runtime not found. List runtimes with `runtimectl ls --all`.',
      code: 'runtime_not_found',
      details: { runtime_id: 'no-such-runtime' },
      exit_code: 4,
    });
    expect(document.request_id).toMatch(/\S/);

    const usage = await runCli(['--json', 'ls', '--limit', '0'], { url });
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toMatchObject({ code: 'usage', exit_code: 2, error: expect.stringContaining('whole number') });
  });

  it('a daemon with auth: no token and a wrong token exit 1 and say to set RUNTIMECTL_TOKEN; the right one works', async () => {
    const noToken = await runCli(['ls'], { url: authDaemon.url });
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toBe(`runtimectl: the daemon at ${authDaemon.url} requires a bearer token (unauthorized). Set RUNTIMECTL_TOKEN or pass --token.\n`);
    const wrong = await runCli(['ls'], { url: authDaemon.url, env: { RUNTIMECTL_TOKEN: 'not-the-token-at-all' } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(`runtimectl: the daemon at ${authDaemon.url} refused the bearer token (unauthorized). Set RUNTIMECTL_TOKEN or --token to the daemon's token.\n`);
    expect(wrong.stderr).not.toContain('not-the-token-at-all');
    const [withFlag, withEnv, health] = await Promise.all([
      runCli(['ls', '--token', TOKEN], { url: authDaemon.url }),
      runCli(['providers'], { url: authDaemon.url, env: { RUNTIMECTL_TOKEN: TOKEN } }),
      // health needs no token.
      runCli(['health'], { url: authDaemon.url }),
    ]);
    expect([withFlag.code, withEnv.code, health.code]).toEqual([0, 0, 0]);
  });

  it('a busy runtime exits 5 and says an operation is in flight', async () => {
    await client.open({ runtime_id: 'busy', conversation_id: 'c', sender_id: 's' });
    // Long enough that a second CLI start on a loaded machine still finds it running; bounded
    // by --timeout so the daemon is free again by the end of the test.
    const longExec = runCli(['exec', 'busy', '--timeout', '15000', '--', 'sleep', '60'], at);
    for (let attempt = 0; (await client.get('busy')).runtime.status !== 'running'; attempt += 1) {
      if (attempt > 100) throw new Error('the exec never started');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const checkpoint = await runCli(['checkpoint', 'busy'], at);
    expect(checkpoint.code).toBe(5);
    expect(checkpoint.stdout).toBe('');
    expect(checkpoint.stderr).toBe('runtimectl: runtime busy has an operation in flight (session_busy). Wait for it to finish and retry.\n');
    expect((await longExec).code).toBe(124);
  });

  it('a conflicting re-open names the runtime\'s own conversation and sender and the command that re-attaches; a closed runtime says what is left', async () => {
    await client.open({ runtime_id: 'k2', conversation_id: 'team chat', sender_id: 'bob' });
    const conflict = await runCli(['open', '--id', 'k2', '--sender', 'alice'], at);
    expect(conflict.code).toBe(5);
    expect(conflict.stderr).toBe(
      "runtimectl: runtime k2 exists, opened by conversation team chat, sender bob (runtime_exists: a different conversation_id, sender_id). Re-attach with `runtimectl open --id k2 --conversation 'team chat' --sender bob`, or choose another --id.\n",
    );
    const metadata = await runCli(['open', '--id', 'k2', '--conversation', 'team chat', '--sender', 'bob', '-m', 'team=x'], at);
    expect(metadata.stderr).toBe('runtimectl: runtime k2 exists with a different metadata (runtime_exists). A re-open must match it: change its metadata with `runtimectl update k2 -m …`, or choose another --id.\n');
    await client.close({ runtime_id: 'k2' });
    const closed = await runCli(['exec', 'k2', '--', 'true'], at);
    expect(closed.code).toBe(5);
    expect(closed.stderr).toBe(
      'runtimectl: runtime k2 is closed (runtime_closed). Its checkpoints stay: `runtimectl log k2` lists them, and `runtimectl checkout <checkpoint>` continues from one whose snapshot was kept; a new runtime needs another --id.\n',
    );
  });

  it('unknown ids exit 4 and name the id', async () => {
    const runtime = await runCli(['show', 'no-such-runtime'], at);
    expect(runtime.code).toBe(4);
    expect(runtime.stderr).toBe('runtimectl: runtime no-such-runtime not found. List runtimes with `runtimectl ls --all`.\n');
    const missing = 'rtcp_0123456789abcdef0123456789abcdef';
    const checkpointRuns = await Promise.all([['checkout', missing], ['delete-snapshot', missing]].map((args) => runCli(args, at)));
    for (const result of checkpointRuns) {
      expect(result.code).toBe(4);
      expect(result.stderr).toBe(`runtimectl: checkpoint ${missing} not found. List a runtime's checkpoints with \`runtimectl log <runtime>\`.\n`);
    }
    const runtimeCommands = [['exec', 'ghost', '--', 'true'], ['log', 'ghost'], ['log', 'ghost', '--graph'], ['pause', 'ghost'], ['close', 'ghost']];
    const runtimeRuns = await Promise.all(runtimeCommands.map((args) => runCli(args, at)));
    runtimeRuns.forEach((result, index) => {
      expect({ args: runtimeCommands[index], code: result.code, stderr: result.stderr }).toEqual({
        args: runtimeCommands[index],
        code: 4,
        stderr: 'runtimectl: runtime ghost not found. List runtimes with `runtimectl ls --all`.\n',
      });
    });
  });

  it('a provider without snapshots exits 1 naming the provider and the capability', async () => {
    await client.open({ runtime_id: 'plain', conversation_id: 'c', sender_id: 's', provider: 'local' });
    const result = await runCli(['pause', 'plain'], at);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'runtimectl: provider local does not support pause (unsupported_backend). Open the runtime on a provider that has it: see `runtimectl providers`.\n',
    );
  });

  it('usage errors exit 2 with one line naming the command whose --help to read, before contacting the daemon', async () => {
    const url = await closedPortUrl();
    const cases: Array<[string[], RegExp]> = [
      [['frobnicate'], /^runtimectl: unknown command 'frobnicate' \(see runtimectl --help\)\n$/],
      [['ls', '--status', 'sleepy'], /^runtimectl: option '--status <status>' argument 'sleepy' is invalid\. Allowed choices are idle, running, paused, failed, closed\. \(see runtimectl ls --help\)\n$/],
      [['checkpoint', 'x', '-m', 'novalue'], /^runtimectl: option .*argument 'novalue' is invalid\. expected key=value, got "novalue" \(see runtimectl checkpoint --help\)\n$/],
      [['ls', '--limit', '0'], /expected a whole number from 1 to 500, got "0"/],
      [['webhooks', 'deliveries'], /^runtimectl: missing required argument 'webhook-id' \(see runtimectl webhooks deliveries --help\)\n$/],
      [['show', 'not an id!'], /^runtimectl: invalid argument: a runtime id: .*See `runtimectl show --help`\.\n$/],
      [['checkout', 'rtcp_nothex'], /^runtimectl: invalid argument: checkpoint_id: a checkpoint id/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args, { url })));
    results.forEach((result, index) => {
      const [args, stderr] = cases[index]!;
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toMatch(stderr);
    });
  });

  it('--help of every command shows an example and --version prints the version', async () => {
    const top = await runCli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('Exit codes:\n  0    ok\n');
    const commandSection = top.stdout.split('\nCommands:\n')[1]!.split('\n\n')[0]!;
    const commands = [...commandSection.matchAll(/^ {2}([a-z-]+) /gm)].map((match) => match[1]!).filter((name) => name !== 'help');
    expect(commands).toEqual(
      ['open', 'ls', 'show', 'update', 'exec', 'cat', 'write', 'export', 'checkpoint', 'checkout', 'fork', 'pause', 'resume', 'close', 'delete-snapshot', 'pin', 'retention', 'diff', 'ls-tree', 'log', 'events', 'webhooks', 'keys', 'mcp', 'providers', 'nodes', 'health', 'completion'],
    );
    const helps = await Promise.all(commands.map((command) => runCli([command, '--help'])));
    helps.forEach((help, index) => {
      expect({ command: commands[index], code: help.code }).toEqual({ command: commands[index], code: 0 });
      const examples = help.stdout.split(/\nExamples?:\n/)[1] ?? '';
      expect(examples).toMatch(new RegExp(`^ {2}\\$ .*runtimectl ${commands[index]}\\b`, 'm'));
    });
    expect(await runCli(['--version'])).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  });
});
