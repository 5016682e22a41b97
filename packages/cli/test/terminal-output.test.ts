import { execFileSync, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, runCli } from './cli-process';
import { useSharedRuntimed } from './shared-runtimed';

const ESC = '\u001b';
const shared = useSharedRuntimed();

describe.concurrent('output for pipes and terminals', () => {
  it('operations that wait on a provider print no spinner and no control character when not on a TTY', async () => {
    await shared.openRuntime('quiet-pipes');
    const { checkpoint_id: checkpointId } = await shared.client.checkpoint({ runtime_id: 'quiet-pipes' });
    const runs = [
      await runCli(['checkpoint', 'quiet-pipes'], shared.at),
      await runCli(['checkout', checkpointId], shared.at),
      await runCli(['fork', 'quiet-pipes'], shared.at),
      await runCli(['pause', 'quiet-pipes'], shared.at),
      await runCli(['resume', 'quiet-pipes'], shared.at),
    ];
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).not.toContain(ESC);
      expect(run.stdout).not.toContain('\r');
      expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('colour appears only when forced, and NO_COLOR wins over everything', async () => {
    await shared.openRuntime('colourful');
    const piped = await runCli(['ls'], shared.at);
    expect(piped.stdout).not.toContain(ESC);
    const forced = await runCli(['ls'], { ...shared.at, env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(`${ESC}[`);
    const noColor = await runCli(['ls'], { ...shared.at, env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain(ESC);
    const graph = await runCli(['log', 'colourful', '--graph'], { ...shared.at, env: { FORCE_COLOR: '1', NO_COLOR: '' } });
    expect(graph.stdout).not.toContain(ESC);
  });
});

/** `script` (util-linux) runs a command on a pseudo-terminal: the way to be a TTY without a person. */
const scriptAvailable = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!scriptAvailable)('on a terminal (util-linux script)', () => {
  let slowDaemon: Server;
  let slowUrl: string;

  beforeAll(async () => {
    // A stand-in daemon whose checkpoint takes 2.2 s, like a real provider snapshot: long
    // enough for the spinner's elapsed seconds to show.
    slowDaemon = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        setTimeout(() => {
          const runtime = { runtime_id: 'slow', conversation_id: 'c', sender_id: 's', status: 'idle', created_at_ms: 1, updated_at_ms: 2 };
          response.setHeader('content-type', 'application/json');
          response.end(
            JSON.stringify({
              checkpoint_id: 'rtcp_0123456789abcdef0123456789abcdef',
              runtime,
              parent_checkpoint_id: null,
              created_at_ms: 2,
              name: null,
              metadata: {},
              reused_backend_snapshot: false,
              manifest_root: null,
            }),
          );
        }, 2200);
      });
    });
    await new Promise<void>((resolve) => slowDaemon.listen(0, '127.0.0.1', resolve));
    slowUrl = `http://127.0.0.1:${(slowDaemon.address() as { port: number }).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => slowDaemon.close(() => resolve())));

  const onTerminal = (args: string[], env: NodeJS.ProcessEnv): Promise<string> => {
    const line = [process.execPath, CLI_BIN, ...args].map((word) => `'${word}'`).join(' ');
    const child = spawn('script', ['-qec', line, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return new Promise((resolve) => child.once('close', () => resolve(output)));
  };

  it('shows a spinner with elapsed seconds on stderr, then erases it', async () => {
    const output = await onTerminal(['checkpoint', 'slow'], { RUNTIMECTL_URL: slowUrl });
    expect(output).toContain('checkpointing slow…');
    expect(output).toMatch(/checkpointing slow… [12]s/);
    expect(output).toContain(`${ESC}[?25l`); // the cursor hidden while spinning …
    expect(output).toContain(`${ESC}[?25h`); // … and shown again
    const visible = output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
    expect(visible).toMatch(/checkpoint rtcp_0123456789abcdef0123456789abcdef of slow\r?\n$/);
  });

  it('--quiet shows no spinner even on a terminal', async () => {
    const output = await onTerminal(['checkpoint', 'slow', '--quiet'], { RUNTIMECTL_URL: slowUrl });
    expect(output).not.toContain('checkpointing');
    expect(output.trim()).toBe('rtcp_0123456789abcdef0123456789abcdef');
  });

  it('colours a table on a terminal, and not with NO_COLOR', async () => {
    await shared.openRuntime('tty-colour');
    expect(await onTerminal(['ls'], { RUNTIMECTL_URL: shared.daemon.url })).toContain(`${ESC}[`);
    expect(await onTerminal(['ls'], { RUNTIMECTL_URL: shared.daemon.url, NO_COLOR: '1' })).not.toContain(ESC);
  });
});
