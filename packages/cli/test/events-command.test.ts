import { EventListResultSchema } from '@runtimectl/core';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI_BIN, runCli, runCliJson } from './cli-process';
import { expectShape } from './expect-shape';
import { useSharedRuntimed } from './shared-runtimed';

const shared = useSharedRuntimed();

describe('events', () => {
  it('events --runtime --json prints the page of that runtime’s events; the table names each change', async () => {
    await shared.openRuntime('ev-page');
    await shared.client.close({ runtime_id: 'ev-page' });
    const page = expectShape(EventListResultSchema, await runCliJson(['events', '--runtime', 'ev-page'], shared.at));
    expect(page.events.map((event) => event.type)).toEqual(['runtime.opened', 'runtime.closed']);
    const table = await runCli(['events', '--runtime', 'ev-page', '--type', 'runtime.closed'], shared.at);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^EVENT\s+TIME\s+TYPE\s+RUNTIME\s+CHECKPOINT\s+DETAILS\n\d+\s+\S+Z\s+runtime\.closed\s+ev-page\s+-\s+keep_snapshots=false\n$/);
  });

  it('an unknown --type is a usage error naming the known ones', async () => {
    const result = await runCli(['events', '--type', 'runtime.exploded'], shared.at);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown event type "runtime.exploded"');
  });

  it('a full page says how to read the next one, with the same filters', async () => {
    await shared.openRuntime('ev-more');
    await shared.client.checkpoint({ runtime_id: 'ev-more' });
    await shared.client.close({ runtime_id: 'ev-more' });
    const first = await runCli(['events', '--runtime', 'ev-more', '--limit', '2', '--quiet'], shared.at);
    const ids = first.stdout.trim().split('\n');
    expect(ids).toHaveLength(2);
    expect(first.stderr).toBe('');
    const human = await runCli(['events', '--runtime', 'ev-more', '--limit', '2'], shared.at);
    expect(human.stderr).toBe(`more events: runtimectl events --runtime ev-more --limit 2 --after ${ids[1]}\n`);
    // The rest fits in a page of 500: no hint.
    const rest = await runCli(['events', '--runtime', 'ev-more', '--limit', '500', '--after', ids[1]!], shared.at);
    expect(rest.stdout).toMatch(/runtime\.closed/);
    expect(rest.stderr).toBe('');
  });

  it('events --follow starts at now: what happened before is not replayed (--from-start or --after do)', async () => {
    await shared.openRuntime('ev-now');
    const child = spawn(process.execPath, [CLI_BIN, 'events', '--follow', '--runtime', 'ev-now'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, RUNTIMECTL_URL: shared.daemon.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    for (let waited = 0; !/^following events after \d+/m.test(stderr); waited += 20) {
      if (waited > 20_000) throw new Error(`the follow never started; stderr: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(stderr).toMatch(/^following events after \d+ \(--from-start replays the log; Ctrl-C stops\)\n$/);
    await shared.client.close({ runtime_id: 'ev-now' });
    for (let waited = 0; !stdout.includes('runtime.closed'); waited += 20) {
      if (waited > 20_000) throw new Error(`timed out waiting for the closing; stdout: ${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).not.toContain('runtime.opened');
    const both = await runCli(['events', '--follow', '--from-start', '--after', '3'], shared.at);
    expect(both).toMatchObject({ code: 2, stderr: 'runtimectl: events: give --from-start or --after, not both\n' });
  });

  it('events --follow --from-start --json prints one JSON object per line from the start of the log, then as events are committed, and stops on SIGTERM', async () => {
    await shared.openRuntime('ev-follow');
    const child = spawn(process.execPath, [CLI_BIN, '--json', 'events', '--follow', '--from-start', '--runtime', 'ev-follow'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, RUNTIMECTL_URL: shared.daemon.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const lines = () => stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { type: string });
    const until = async (what: string, condition: () => boolean) => {
      for (let waited = 0; !condition(); waited += 20) {
        if (waited > 20_000) throw new Error(`timed out waiting for ${what}; stdout: ${stdout}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await until('the opening', () => lines().length === 1);
    await shared.client.close({ runtime_id: 'ev-follow' });
    await until('the closing', () => lines().length === 2);
    expect(lines().map((event) => event.type)).toEqual(['runtime.opened', 'runtime.closed']);
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
