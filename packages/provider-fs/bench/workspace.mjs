// The benchmark's workspace: 10,000 files / 200 MiB in a realistic mix — many small files (a
// few hundred bytes to 64 KiB; 40% of them text, the rest random bytes), ten files of exactly
// 1 MiB (the ones the benchmark changes) and multi-MiB files filling the rest (a few of them
// text logs). Random bytes are incompressible, so gzip cannot cheat; the text compresses as
// source code and logs do. Sizes come from a seeded generator: every run measures the same tree.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const WORKSPACE = { files: 10_000, bytes: 200 * 2 ** 20, oneMiBFiles: 10, largeFiles: 40 };

/** mulberry32: a small seeded generator, so the tree's shape is the same in every run. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = 'const let return function import export from await async if else for while class interface type string number value error result request response workspace snapshot manifest blob index hash path file directory provider runtime checkpoint checkout'.split(' ');

/** `bytes` of text made of words and lines, as source files and logs are. */
function text(random, bytes) {
  const parts = [];
  let length = 0;
  while (length < bytes) {
    let line = '  '.repeat(Math.floor(random() * 4));
    const words = 3 + Math.floor(random() * 9);
    for (let i = 0; i < words; i++) line += `${WORDS[Math.floor(random() * WORDS.length)]}${random() < 0.2 ? `_${Math.floor(random() * 1000)}` : ''} `;
    parts.push(`${line}\n`);
    length += line.length + 1;
  }
  return Buffer.from(parts.join('')).subarray(0, bytes);
}

/**
 * Writes the workspace into the existing directory `root`. Returns the relative paths of the
 * 1 MiB files (for `changeOneMiBFile`) and the totals written. `shape` scales it down (files,
 * bytes) with the same mix, for quick runs.
 */
export async function makeWorkspace(root, { seed = 21, shape = WORKSPACE } = {}) {
  const random = seeded(seed);
  const small = shape.files - WORKSPACE.oneMiBFiles - WORKSPACE.largeFiles;
  const files = [];
  let smallBytes = 0;
  for (let i = 0; i < small; i++) {
    const band = random();
    const size = band < 0.6 ? 512 + Math.floor(random() * 3584) : band < 0.9 ? 4096 + Math.floor(random() * 12288) : 16384 + Math.floor(random() * 49152);
    files.push({ path: `pkg${i % 10}/dir${Math.floor(i / 10) % 10}/sub${Math.floor(i / 100) % 10}/file${i}.${random() < 0.4 ? 'ts' : 'bin'}`, size });
    smallBytes += size;
  }
  const oneMiB = [];
  for (let i = 0; i < WORKSPACE.oneMiBFiles; i++) {
    const path = `data/one-mib-${i}.bin`;
    oneMiB.push(path);
    files.push({ path, size: 2 ** 20 });
  }
  const largeBytes = shape.bytes - smallBytes - WORKSPACE.oneMiBFiles * 2 ** 20;
  for (let i = 0; i < WORKSPACE.largeFiles; i++) {
    const size = i < WORKSPACE.largeFiles - 1 ? Math.floor(largeBytes / WORKSPACE.largeFiles) : largeBytes - Math.floor(largeBytes / WORKSPACE.largeFiles) * (WORKSPACE.largeFiles - 1);
    files.push({ path: i % 8 === 0 ? `logs/large-${i}.log` : `assets/large-${i}.bin`, size });
  }
  const directories = new Set(files.map(({ path }) => path.slice(0, path.lastIndexOf('/'))));
  for (const directory of directories) await mkdir(join(root, directory), { recursive: true });
  let written = 0;
  for (const { path, size } of files) {
    const content = path.endsWith('.ts') || path.endsWith('.log') ? text(random, size) : randomBytes(size);
    await writeFile(join(root, path), content);
    written += size;
  }
  return { oneMiB, files: files.length, bytes: written, directories: directories.size };
}

/** Replaces the content of one 1 MiB file with new random bytes (same size). */
export async function changeOneMiBFile(root, path) {
  await writeFile(join(root, path), randomBytes(2 ** 20));
}
