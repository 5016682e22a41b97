import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_BIN, runCli } from './cli-process';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';

// The examples a newcomer copies first, run as written against a daemon on its defaults (the fs
// provider, no config): they must work there, not only on a test daemon. Each section gets a
// daemon of its own: they all open `demo`, and a closed runtime's id is not opened again.

const ROOT_README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const CLI_README = fileURLToPath(new URL('../README.md', import.meta.url));

/**
 * Runs `lines` in one bash, in order, `runtimectl` being the built bin pointed at the shared
 * daemon; prints a record separator (0x1e) and the line's index before each line's output, so
 * each line's output can be told apart. Stops at the first line that fails (`set -e`).
 */
function runScript(daemon: RuntimedProcess, lines: readonly string[]): Promise<{ code: number | null; outputs: string[]; stderr: string }> {
  const script = [
    'set -euo pipefail',
    `runtimectl() { "${process.execPath}" "${CLI_BIN}" "$@"; }`,
    ...lines.flatMap((line, index) => [`printf '\\x1e%d\\n' ${index}`, line]),
  ].join('\n');
  const child = spawn('bash', ['-c', script], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, RUNTIMECTL_URL: daemon.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const outputs = stdout.split('\x1e').slice(1).map((part) => part.slice(part.indexOf('\n') + 1));
      resolve({ code, outputs, stderr });
    });
  });
}

/** The `$ ` commands of `runtimectl <args> --help`'s Examples section. */
async function helpExamples(args: string[]): Promise<string[]> {
  const help = await runCli([...args, '--help']);
  const section = help.stdout.split(/\nExamples?:\n/)[1] ?? '';
  return section.split('\n\n')[0]!.split('\n').map((line) => line.replace(/^ {2}\$ /, ''));
}

/** A documented output as a pattern: generated ids (checkpoints, checkout children) stand for any. */
function outputPattern(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/rtcp_[0-9a-f]{32}/g, 'rtcp_[0-9a-f]{32}').replace(/:checkout:[0-9a-f]{32}/g, ':checkout:[0-9a-f]{32}')}$`);
}

/** Runs `section` against a fresh daemon on its defaults, stopped after it. */
async function onDefaultDaemon(section: (daemon: RuntimedProcess) => Promise<void>): Promise<void> {
  const daemon = await startRuntimed([]);
  try {
    await section(daemon);
  } finally {
    await daemon.stop();
  }
}

describe.concurrent('documented examples on a daemon with its defaults', () => {
  it("the root README's first session prints what it documents, command by command", () =>
    onDefaultDaemon(async (daemon) => {
      const readme = readFileSync(ROOT_README, 'utf8');
      const block = /## A first session[\s\S]*?```console\n([\s\S]*?)```/.exec(readme)![1]!;
      const steps: Array<{ command: string; output: string }> = [];
      for (const line of block.split('\n').slice(0, -1)) {
        if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: '' });
        else steps.at(-1)!.output += `${line}\n`;
      }
      expect(steps.length).toBeGreaterThan(10);
      const run = await runScript(daemon, steps.map(({ command }) => command));
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      steps.forEach(({ command, output }, index) => expect({ command, output: run.outputs[index] }).toEqual({ command, output: expect.stringMatching(outputPattern(output)) }));
    }));

  it("the CLI README's first lines run as written, and the forked runtime has the file exec wrote", () =>
    onDefaultDaemon(async (daemon) => {
      const readme = readFileSync(CLI_README, 'utf8');
      const block = /```sh\n([\s\S]*?)```/.exec(readme)![1]!;
      // Past installing and pointing at the daemon: the session itself.
      const lines = block.split('\n').filter((line) => line.startsWith('runtimectl ') || line.startsWith('BRANCH='));
      expect(lines[0]).toMatch(/^runtimectl open --id demo\b/);
      const run = await runScript(daemon, lines.map((line) => line.replace(/\s+# .*$/, '')));
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.outputs[lines.findIndex((line) => line.includes('cat hello.txt'))]).toBe('hello\n');
    }));

  it('the examples of `runtimectl --help` run as written, and the fork has the file exec wrote', () =>
    onDefaultDaemon(async (daemon) => {
      const program = await helpExamples([]);
      expect(program.join('\n')).toContain("exec demo -- 'echo hello > hello.txt'");
      const run = await runScript(daemon, program);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.outputs[program.findIndex((line) => line.includes('cat hello.txt'))]).toBe('hello\n');
    }));

  it('the examples of `runtimectl open --help` run as written; a provider the daemon does not enable is refused with the setting that enables it', () =>
    onDefaultDaemon(async (daemon) => {
      const run = await runScript(daemon, await helpExamples(['open']));
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      const memory = await runCli(['open', '--id', 'mem', '--provider', 'memory'], { url: daemon.url });
      expect(memory.code).toBe(2);
      expect(memory.stderr).toContain('unknown provider memory (configured: local, fs). ');
      expect(memory.stderr).toContain("Enable it in runtimed's config: `[providers.memory] enabled = true`, or RUNTIMECTL_PROVIDERS_MEMORY_ENABLED=true");
    }));
});
