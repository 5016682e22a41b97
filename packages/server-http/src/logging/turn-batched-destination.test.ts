import { spawnSync } from 'node:child_process';
import fs, { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { turnBatchedDestination } from './turn-batched-destination';

describe('turnBatchedDestination', () => {
  let dir: string;
  let logFile: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'runtimectl-log-'));
    logFile = join(dir, 'daemon.log');
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes all lines logged in one event-loop turn with a single write at the end of that turn', async () => {
    const destination = turnBatchedDestination(logFile);
    const writes = vi.spyOn(fs, 'writeSync');
    const logger = pino({ base: null, timestamp: false }, destination);
    for (let line = 1; line <= 3; line += 1) logger.info({ line }, 'request completed');
    expect(readFileSync(logFile, 'utf8')).toBe('');

    await nextTurn();
    const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n').map((text) => JSON.parse(text) as { line: number });
    expect(lines.map((entry) => entry.line)).toEqual([1, 2, 3]);
    expect(writes).toHaveBeenCalledTimes(1);
  });

  it('writes each later turn separately and writes nothing in a turn that logged nothing', async () => {
    const destination = turnBatchedDestination(logFile);
    const writes = vi.spyOn(fs, 'writeSync');
    destination.write('first\n');
    await nextTurn();
    await nextTurn();
    destination.write('second\n');
    await nextTurn();
    expect(readFileSync(logFile, 'utf8')).toBe('first\nsecond\n');
    expect(writes).toHaveBeenCalledTimes(2);
  });

  it('flushSync writes what the current turn buffered at once', () => {
    const destination = turnBatchedDestination(logFile);
    destination.write('now\n');
    destination.flushSync();
    expect(readFileSync(logFile, 'utf8')).toBe('now\n');
  });

  it('adds one exit listener however many destinations a process makes', () => {
    const before = process.listenerCount('exit');
    for (let index = 0; index < 20; index += 1) turnBatchedDestination(join(dir, `log-${index}`));
    expect(process.listenerCount('exit') - before).toBeLessThanOrEqual(1);
  });

  // A real process (running the built package): the lines of the turn that ends the program must not be lost.
  const runScript = (body: string) => {
    const moduleUrl = new URL('../../dist/index.js', import.meta.url).href;
    const script = `import { turnBatchedDestination } from ${JSON.stringify(moduleUrl)};
const destination = turnBatchedDestination(${JSON.stringify(logFile)});
${body}`;
    return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  };

  it('keeps the last turn’s lines when the program calls process.exit', () => {
    const result = runScript(`destination.write('last words\\n'); process.exit(3);`);
    expect(result.status).toBe(3);
    expect(readFileSync(logFile, 'utf8')).toBe('last words\n');
  });

  it('keeps the last turn’s lines of every destination when the program exits', () => {
    const otherFile = join(dir, 'other.log');
    const result = runScript(
      `const other = turnBatchedDestination(${JSON.stringify(otherFile)}); destination.write('one\\n'); other.write('two\\n'); process.exit(0);`,
    );
    expect(result.status).toBe(0);
    expect(readFileSync(logFile, 'utf8')).toBe('one\n');
    expect(readFileSync(otherFile, 'utf8')).toBe('two\n');
  });

  it('keeps the last turn’s lines when the program dies of an uncaught exception', () => {
    const result = runScript(`destination.write('before the crash\\n'); throw new Error('boom');`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('boom');
    expect(readFileSync(logFile, 'utf8')).toBe('before the crash\n');
  });
});
