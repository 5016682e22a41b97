import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runCliJson } from './cli-process';
import { useSharedRuntimed } from './shared-runtimed';

// read-file answers files up to 4 KiB here, so a 413 is cheap to reach; export streams any size.
const shared = useSharedRuntimed(undefined, { RUNTIMECTL_RUNTIMES_READ_FILE_MAX_BYTES: '4096' });
const scratch = mkdtempSync(join(tmpdir(), 'runtimectl-cli-export-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A fresh local directory for one test. */
const directory = (name: string) => mkdtempSync(join(scratch, `${name}-`));

describe.concurrent('export', () => {
  it("downloads a runtime's file to a local file of its name, byte for byte, and says where", async () => {
    const bytes = randomBytes(256 * 1024);
    await shared.openRuntime('ex-copy');
    await shared.client.writeFileBytes('ex-copy', 'out/data.bin', bytes);
    const cwd = directory('copy');
    const exported = await runCli(['export', 'ex-copy', 'out/data.bin'], { ...shared.at, cwd });
    expect(exported).toMatchObject({ code: 0, stderr: '', stdout: `exported out/data.bin of ex-copy to data.bin (${bytes.length} bytes)\n` });
    expect(readFileSync(join(cwd, 'data.bin')).equals(bytes)).toBe(true);
  });

  it('-o names the local file (- is stdout); --json and --quiet say where it went', async () => {
    await shared.openRuntime('ex-output');
    await shared.client.writeFileBytes('ex-output', 'a.txt', 'alpha\n');
    const target = join(directory('output'), 'copy.txt');
    const json = await runCliJson<Record<string, unknown>>(['export', 'ex-output', 'a.txt', '-o', target], shared.at);
    expect(json).toEqual({ runtime_id: 'ex-output', path: 'a.txt', file: target, size_bytes: 6 });
    expect(readFileSync(target, 'utf8')).toBe('alpha\n');
    const quiet = await runCli(['export', 'ex-output', 'a.txt', '-o', `${target}.2`, '--quiet'], shared.at);
    expect(quiet).toMatchObject({ code: 0, stdout: `${target}.2\n` });
    const stdout = await runCli(['export', 'ex-output', 'a.txt', '-o', '-'], shared.at);
    expect(stdout).toMatchObject({ code: 0, stdout: 'alpha\n', stderr: '' });
  });

  it('never overwrites a local file unless --force, and leaves nothing behind when the download fails', async () => {
    await shared.openRuntime('ex-safe');
    await shared.client.writeFileBytes('ex-safe', 'a.txt', 'new');
    const cwd = directory('safe');
    writeFileSync(join(cwd, 'a.txt'), 'mine');
    const refused = await runCli(['export', 'ex-safe', 'a.txt'], { ...shared.at, cwd });
    expect(refused).toMatchObject({ code: 2, stderr: `runtimectl: export: a.txt exists; give --force to overwrite it, or -o another file\n` });
    expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('mine');
    const forced = await runCli(['export', 'ex-safe', 'a.txt', '--force'], { ...shared.at, cwd });
    expect(forced.code).toBe(0);
    expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('new');
    const missing = await runCli(['export', 'ex-safe', 'gone.txt'], { ...shared.at, cwd });
    expect(missing.code).toBe(4);
    expect(existsSync(join(cwd, 'gone.txt'))).toBe(false);
    expect(readdirSync(cwd)).toEqual(['a.txt']);
  });

  it("a file over read-file's limit: cat --json refuses it and names export, which downloads it", async () => {
    await shared.openRuntime('ex-big');
    await shared.client.writeFileBytes('ex-big', 'big.log', 'x'.repeat(10_000));
    const refused = await runCli(['cat', 'ex-big', 'big.log', '--json'], shared.at);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/\(payload_too_large\)\. `runtimectl export ex-big big\.log` downloads it, whatever its size\.( \[request \S+\])?\n$/);
    const cwd = directory('big');
    expect((await runCli(['export', 'ex-big', 'big.log'], { ...shared.at, cwd })).code).toBe(0);
    expect(readFileSync(join(cwd, 'big.log'), 'utf8')).toHaveLength(10_000);
  });
});
