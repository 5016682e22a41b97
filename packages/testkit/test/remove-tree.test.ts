import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeTree } from '../src/server-process/index';

const mounted = (directory: string) => readFileSync('/proc/self/mountinfo', 'utf8').includes(` ${directory}/`);

describe('removeTree', () => {
  it('removes a tree, and a directory already gone is fine', () => {
    const directory = mkdtempSync(join(tmpdir(), 'remove-tree-'));
    mkdirSync(join(directory, 'a', 'b'), { recursive: true });
    writeFileSync(join(directory, 'a', 'b', 'file'), 'x');
    removeTree(directory);
    expect(existsSync(directory)).toBe(false);
    expect(() => removeTree(directory)).not.toThrow();
  });

  it('removes a tree deeper than PATH_MAX', () => {
    const directory = mkdtempSync(join(tmpdir(), 'remove-tree-'));
    // Chains of ten 200-byte names moved into one another: every path given stays short.
    const script = 'seg=$(printf "d%.0s" $(seq 200)); chain() { p=$1; for i in $(seq 10); do p=$p/$seg; done; mkdir -p $p; echo $p; }; a=$(chain a); b=$(chain b); c=$(chain c); echo deep > $c/file; mv c/$seg $b/ && mv b/$seg $a/';
    execFileSync('sh', ['-c', script], { cwd: directory });
    removeTree(directory);
    expect(existsSync(directory)).toBe(false);
  });

  it.skipIf(process.getuid?.() !== 0 || !existsSync('/proc/self/mountinfo'))('detaches the mounts under it first (nested ones too), so none outlives the removal', () => {
    const directory = mkdtempSync(join(tmpdir(), 'remove-tree-'));
    const outer = join(directory, 'workspaces', 'one');
    mkdirSync(outer, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', outer]);
    mkdirSync(join(outer, 'inner'));
    execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', join(outer, 'inner')]);
    writeFileSync(join(outer, 'inner', 'file'), 'x');
    expect(mounted(directory)).toBe(true);

    removeTree(directory);

    expect(mounted(directory)).toBe(false);
    expect(existsSync(directory)).toBe(false);
  });
});
