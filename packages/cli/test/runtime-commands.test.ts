import {
  ProviderListResultSchema,
  RuntimeCloseResultSchema,
  RuntimeDetailSchema,
  RuntimeExecResultSchema,
  RuntimeListResultSchema,
  RuntimeOpenResultSchema,
  RuntimeReadFileResultSchema,
  RuntimeWriteFileResultSchema,
  HealthResultSchema,
  NodeListResultSchema,
} from '@runtimectl/core';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, runCli, runCliJson } from './cli-process';
import { expectShape } from './expect-shape';
import { useSharedRuntimed } from './shared-runtimed';

const shared = useSharedRuntimed();
const scratch = mkdtempSync(join(tmpdir(), 'runtimectl-cli-files-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('open, ls, show', () => {
  it('open prints what it did, and --quiet only the id a script captures', async () => {
    const human = await runCli(['open', '--id', 'alpha', '--sender', 'ops', '-m', 'team=infra', '-m', 'priority=2'], shared.at);
    expect(human).toMatchObject({ code: 0, stderr: '' });
    expect(human.stdout).toBe('opened runtime alpha (idle)\n');
    const again = await runCli(['open', '--id', 'alpha', '--sender', 'ops', '--quiet'], shared.at);
    expect(again).toMatchObject({ code: 0, stdout: 'alpha\n' });
  });

  it('open --json prints the API response, with metadata values JSON-parsed when they parse', async () => {
    const opened = expectShape(RuntimeOpenResultSchema, await runCliJson(['open', '--id', 'beta', '--sender', 'ops', '--conversation', 'c9', '-m', 'n=3', '-m', 'tag=blue'], shared.at));
    expect(opened).toMatchObject({ created: true, runtime: { runtime_id: 'beta', conversation_id: 'c9', sender_id: 'ops', status: 'idle' } });
    const detail = expectShape(RuntimeDetailSchema, await runCliJson(['show', 'beta'], shared.at));
    expect(detail.metadata).toEqual({ n: 3, tag: 'blue' });
    expect(detail.provider).toBe('memory');
  });

  it('open sets the lifecycle policies (TTL, idle pause, auto-resume, verify) with durations, and show prints them', async () => {
    const opened = await runCli(['open', '--id', 'policed', '--max-lifetime', '2h', '--idle-pause-after', '15m', '--auto-resume', '--no-verify'], shared.at);
    expect(opened).toMatchObject({ code: 0, stderr: '' });
    const detail = expectShape(RuntimeDetailSchema, await runCliJson(['show', 'policed'], shared.at));
    expect(detail).toMatchObject({ idle_pause_after_ms: 900_000, auto_resume: true, verify: false });
    expect(detail.expires_at_ms! - detail.runtime.created_at_ms).toBe(7_200_000);
    const shown = await runCli(['show', 'policed'], shared.at);
    expect(shown.stdout).toMatch(/idle pause\s+after 15m/);
    expect(shown.stdout).toMatch(/auto-resume\s+on/);
    expect(shown.stdout).toMatch(/verify restores\s+off/);
    expect(shown.stdout).toMatch(/expires\s+in (1|2) hours?/);
    const bad = await runCli(['open', '--idle-pause-after', 'soon'], shared.at);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/expected a duration/);
    // Under the daemon's minimum (core's MIN_IDLE_PAUSE_AFTER_MS): refused before anything is sent.
    const tooShort = await runCli(['open', '--id', 'too-eager', '--idle-pause-after', '500ms'], shared.at);
    expect(tooShort.code).toBe(2);
    expect(tooShort.stderr).toMatch(/0 \(never\) or a duration of at least 1000 ms/);
    expect((await runCli(['show', 'too-eager'], shared.at)).code).toBe(4);
  });

  it('show of a runtime past its TTL says it expired and that operations are refused until the policy pass closes it', async () => {
    expect((await runCli(['open', '--id', 'short-lived', '--max-lifetime', '1s'], shared.at)).code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const shown = await runCli(['show', 'short-lived'], shared.at);
    expect(shown.code).toBe(0);
    // The shared daemon's policy pass runs every 60 s: the runtime is still idle, yet refused.
    expect(shown.stdout).toMatch(/^status\s+idle$/m);
    expect(shown.stdout).toMatch(/^expired\s+(now|\d+ seconds? ago) \(operations refused; closed at the next policy pass\)$/m);
    expect(shown.stdout).not.toMatch(/^expires/m);
    expect((await runCli(['exec', 'short-lived', '--', 'true'], shared.at)).code).toBe(5);
  });

  it('open without --id gets a generated id and defaults the conversation to runtimectl', async () => {
    const opened = await runCliJson<{ runtime: { runtime_id: string; conversation_id: string } }>(['open', '--provider', 'local'], shared.at);
    expect(opened.runtime.runtime_id).toMatch(/^rt_[0-9a-f]{32}$/);
    expect(opened.runtime.conversation_id).toBe('runtimectl');
  });

  it('ls prints an aligned table with relative times', async () => {
    const listed = await runCli(['ls'], shared.at);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^RUNTIME\s+STATUS\s+CONVERSATION\s+SENDER\s+CREATED\s+UPDATED$/);
    const alpha = lines.find((line) => line.startsWith('alpha '))!;
    expect(alpha).toMatch(/^alpha\s+idle\s+runtimectl\s+ops\s+(\d+ seconds? ago|now)\s+/);
    // Aligned: every row's STATUS column starts where the header's does.
    const statusColumn = lines[0]!.indexOf('STATUS');
    for (const line of lines.slice(1)) expect(line.slice(statusColumn)).toMatch(/^(idle|running|paused|failed|closed)\b/);
  });

  it('ls --all follows next_cursor through every page; one page says how to get more', async () => {
    const paged = expectShape(RuntimeListResultSchema, await runCliJson(['ls', '--limit', '1', '--all'], shared.at));
    expect(paged.runtimes.map((runtime) => runtime.runtime_id)).toEqual(expect.arrayContaining(['alpha', 'beta']));
    expect(paged.runtimes.length).toBeGreaterThanOrEqual(3);
    expect(paged.next_cursor).toBeNull();

    const onePage = await runCli(['ls', '--limit', '1'], shared.at);
    expect(onePage.code).toBe(0);
    expect(onePage.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(onePage.stderr).toMatch(/^more runtimes: runtimectl ls --all, or --cursor \S+\n$/);
    const quiet = await runCli(['ls', '--status', 'idle', '--all', '-q'], shared.at);
    expect(quiet.stdout.split('\n')).toEqual(expect.arrayContaining(['alpha', 'beta']));
    expect(quiet.stderr).toBe('');
  });

  it('show prints the runtime as aligned fields', async () => {
    const shown = await runCli(['show', 'alpha'], shared.at);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^runtime\s+alpha$/m);
    expect(shown.stdout).toMatch(/^provider\s+memory$/m);
    expect(shown.stdout).toMatch(/^metadata\s+\{"team":"infra","priority":2\}$/m);
    expect(shown.stdout).toMatch(/^head checkpoint\s+-$/m);
  });
});

describe.concurrent('exec', () => {
  it("prints the command's stdout and stderr as its own and exits 0", async () => {
    await shared.openRuntime('ex-out');
    const out = await runCli(['exec', 'ex-out', '--', 'echo', 'hello', 'world'], shared.at);
    expect(out).toMatchObject({ code: 0, stdout: 'hello world\n', stderr: '' });
    const err = await runCli(['exec', 'ex-out', '--', 'echo oops >&2'], shared.at);
    expect(err).toMatchObject({ code: 0, stdout: '', stderr: 'oops\n' });
  });

  it("exits with the command's own exit code", async () => {
    await shared.openRuntime('ex-code');
    expect((await runCli(['exec', 'ex-code', '--', 'exit', '7'], shared.at)).code).toBe(7);
    expect((await runCli(['exec', 'ex-code', '--', 'false'], shared.at)).code).toBe(1);
    const missing = await runCli(['exec', 'ex-code', '--', 'no-such-command'], shared.at);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toBe('memory: command not found: no-such-command\n');
  });

  it('exits 124 when the command times out, and says so on stderr', async () => {
    await shared.openRuntime('ex-timeout');
    const timedOut = await runCli(['exec', 'ex-timeout', '--timeout', '200', '--', 'sleep', '5'], shared.at);
    expect(timedOut.code).toBe(124);
    expect(timedOut.stderr).toBe('runtimectl: the command timed out after 200 ms and was killed (exit 124)\n');
  });

  it('passes --env and --cwd', async () => {
    await shared.openRuntime('ex-env');
    expect((await runCli(['exec', 'ex-env', '--env', 'GREETING=hi there', '--', 'printenv', 'GREETING'], shared.at)).stdout).toBe('hi there\n');
    await shared.client.writeFileBytes('ex-env', 'sub/keep.txt', 'x');
    expect((await runCli(['exec', 'ex-env', '--cwd', 'sub', '--', 'pwd'], shared.at)).stdout).toMatch(/sub\n$/);
  });

  it('--json prints the API response and still exits with the command code', async () => {
    await shared.openRuntime('ex-json');
    const result = await runCli(['--json', 'exec', 'ex-json', '--', 'exit 3'], shared.at);
    expect(result.code).toBe(3);
    const parsed = expectShape(RuntimeExecResultSchema, JSON.parse(result.stdout));
    expect(parsed).toMatchObject({ exit_code: 3, timed_out: false, truncated: false });
  });

  it('refuses a command line without the command as a usage error (exit 2)', async () => {
    const result = await runCli(['exec', 'ex-usage'], shared.at);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("runtimectl: missing required argument 'command' (see runtimectl exec --help)\n");
  });
});

describe.concurrent('write and cat', () => {
  it('write uploads a local file and cat prints it back byte for byte', async () => {
    const bytes = randomBytes(64 * 1024);
    const local = join(scratch, 'blob.bin');
    writeFileSync(local, bytes);
    await shared.openRuntime('files-blob');
    const written = await runCli(['write', 'files-blob', 'data/blob.bin', local], shared.at);
    expect(written).toMatchObject({ code: 0, stdout: `created data/blob.bin (${bytes.length} bytes)\n` });
    const read = await runCli(['cat', 'files-blob', 'data/blob.bin'], shared.at);
    expect(read.code).toBe(0);
    expect(read.stdoutBytes.equals(bytes)).toBe(true);
  });

  it('write - reads stdin; --json answers with the API shapes', async () => {
    await shared.openRuntime('files-stdin');
    const written = expectShape(RuntimeWriteFileResultSchema, await runCliJson(['write', 'files-stdin', 'notes.txt', '-'], { ...shared.at, input: 'from stdin\n' }));
    expect(written).toEqual({ path: 'notes.txt', created: true });
    const again = await runCli(['write', 'files-stdin', 'notes.txt'], { ...shared.at, input: 'second\n' });
    expect(again.stdout).toBe('overwrote notes.txt (7 bytes)\n');
    const read = expectShape(RuntimeReadFileResultSchema, await runCliJson(['cat', 'files-stdin', 'notes.txt'], shared.at));
    expect(Buffer.from(read.content_base64, 'base64').toString()).toBe('second\n');
  });

  it('cat into a reader that stops early (| head) ends quietly with exit 0', async () => {
    await shared.openRuntime('files-pipe');
    await shared.client.writeFileBytes('files-pipe', 'big.txt', 'line\n'.repeat(400_000));
    const piped = spawnSync('bash', ['--norc', '--noprofile', '-o', 'pipefail', '-c', `"${process.execPath}" "${CLI_BIN}" cat files-pipe big.txt | head -n 1`], {
      env: { PATH: process.env.PATH, RUNTIMECTL_URL: shared.daemon.url },
      encoding: 'utf8',
    });
    expect({ status: piped.status, stdout: piped.stdout, stderr: piped.stderr }).toEqual({ status: 0, stdout: 'line\n', stderr: '' });
  });

  it('cat of a missing path exits 4 and names it', async () => {
    await shared.openRuntime('files-missing');
    const missing = await runCli(['cat', 'files-missing', 'nope.txt'], shared.at);
    expect(missing.code).toBe(4);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^runtimectl: .*nope\.txt.*\(path_not_found\)\. .*\n$/);
  });

  it('write of a local file that does not exist is a usage error', async () => {
    const result = await runCli(['write', 'files-missing', 'x.txt', join(scratch, 'absent')], shared.at);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^runtimectl: write: cannot read .*absent: ENOENT\n$/);
  });
});

describe.concurrent('providers, health, close', () => {
  it('providers lists capabilities as a table (SNAPSHOT says of what: filesystem or memory; VERIFY whether restores are verified by default; IN FORCE what each chose for this machine) and as the API response', async () => {
    const human = await runCli(['providers'], shared.at);
    expect(human.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PROVIDER\s+CHECKPOINT\s+SNAPSHOT\s+CHECKOUT\s+PAUSE\s+DELETE-SNAPSHOT\s+VERIFY\s+IN FORCE$/),
        expect.stringMatching(/^local\s+yes\s+no\s+no\s+no\s+no\s+-\s+isolation=(namespace|none) network=\w+$/),
        expect.stringMatching(/^fs\s+yes\s+filesystem\s+yes\s+yes\s+yes\s+default\s+snapshot_store=(layers jobs_at_checkpoint=[\w ]+?|copy) isolation=(namespace|none) network=\w+$/),
        expect.stringMatching(/^memory\s+yes\s+filesystem\s+yes\s+yes\s+yes\s+opt-in\s+-$/),
      ]),
    );
    const json = expectShape(ProviderListResultSchema, await runCliJson(['providers'], shared.at));
    expect(json.providers.map((provider) => provider.provider)).toEqual(['local', 'fs', 'memory']);
    expect(json.providers.find((provider) => provider.provider === 'fs')?.capabilities.snapshot_kind).toBe('filesystem');
  });

  it('nodes lists the fleet\'s nodes as a table and as the API response', async () => {
    const json = expectShape(NodeListResultSchema, await runCliJson(['nodes'], shared.at));
    expect(json.nodes).toEqual([expect.objectContaining({ alive: true, advertise_url: null, version: '0.1.0' })]);
    const nodeId = json.nodes[0]!.node_id;
    const human = await runCli(['nodes'], shared.at);
    expect(human.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^NODE\s+STATE\s+RUNTIMES\s+VERSION\s+STARTED\s+HEARTBEAT\s+URL$/),
        expect.stringMatching(new RegExp(`^${nodeId}\\s+alive\\s+\\d+\\s+0\\.1\\.0\\s+\\S.*\\s+-$`)),
      ]),
    );
    expect((await runCli(['--quiet', 'nodes'], shared.at)).stdout).toBe(`${nodeId}\n`);
  });

  it('health says the daemon answers', async () => {
    const human = await runCli(['health'], shared.at);
    expect(human).toMatchObject({ code: 0, stdout: `runtimed 0.1.0 at ${shared.daemon.url}: ok\n` });
    expect(expectShape(HealthResultSchema, await runCliJson(['health'], shared.at))).toEqual({ status: 'ok', version: '0.1.0' });
    // --url wins over RUNTIMECTL_URL.
    expect((await runCli(['--url', shared.daemon.url, 'health'], { url: 'http://127.0.0.1:9' })).code).toBe(0);
  });

  it('close prints what it released; closing again is a no-op', async () => {
    await shared.openRuntime('gamma');
    const closed = await runCli(['close', 'gamma'], shared.at);
    expect(closed).toMatchObject({ code: 0, stdout: 'closed gamma; released its sandbox; deleted 0 snapshots\n' });
    const again = expectShape(RuntimeCloseResultSchema, await runCliJson(['close', 'gamma'], shared.at));
    expect(again).toMatchObject({ closed_runtime_ids: [], released_backend: false, runtime: { status: 'closed' } });
    expect((await runCli(['close', 'gamma'], shared.at)).stdout).toBe('gamma was already closed\n');
  });

  it('close --no-keep-snapshots releases the snapshots an earlier close --keep-snapshots kept', async () => {
    await shared.openRuntime('kept');
    const { checkpoint_id: checkpointId } = await shared.client.checkpoint({ runtime_id: 'kept' });
    expect((await runCli(['close', 'kept', '--keep-snapshots'], shared.at)).stdout).toBe('closed kept; released its sandbox; deleted 0 snapshots\n');
    expect((await shared.client.getCheckpoint(checkpointId)).has_provider_snapshot).toBe(true);
    const released = await runCli(['close', 'kept', '--no-keep-snapshots'], shared.at);
    expect(released).toMatchObject({ code: 0, stdout: 'kept was already closed; deleted 1 snapshot\n' });
    expect((await shared.client.getCheckpoint(checkpointId)).has_provider_snapshot).toBe(false);
  });
});
