import type { GlobRequest, GrepRequest, SearchResult } from '@runtimectl/core';

/**
 * The fixed tree the search tests write into every backend (under `tree/`, so files a provider
 * keeps in its workspace, such as a sandbox's dotfiles, cannot change the answers), and the
 * answers every provider must give for it. The answers are written out by hand — they are the
 * specification, derived from core's `globFiles`/`grepFiles` rules: paths workspace-relative and
 * sorted, dotfiles included, files only, grep literal and case-sensitive, binary files skipped,
 * matched lines cut to 1,000 characters.
 */
export const SEARCH_BASE = 'tree';

const LONG_LINE = `TODO${'y'.repeat(1500)}`;

export const SEARCH_TREE: Record<string, Uint8Array> = {
  'tree/README.md': text('# Demo\nTODO: write the docs\n'),
  'tree/notes.txt': text('alpha\nbeta TODO gamma\nTODO\n'),
  'tree/.env': text('SECRET=TODO\n'),
  'tree/src/index.ts': text('export const a = 1; // TODO tidy\nexport const b = 2;\n'),
  'tree/src/app.test.ts': text("test('TODO')\n"),
  'tree/src/util/strings.ts': text("// nothing to do here\nexport const s = 'todo lowercase';\n"),
  'tree/src/util/.hidden.ts': text('// TODO hidden\n'),
  'tree/docs/guide.md': text('Guide\n\nTODO one\nTODO two\nno match\n'),
  'tree/long/line.txt': text(`${LONG_LINE}\n`),
  'tree/ünïcode/naïve.txt': text('café TODO ☕\n'),
  // A NUL in the first 8,000 bytes makes it binary: grep skips it although it contains TODO.
  'tree/assets/logo.bin': new Uint8Array([0x89, 0x50, 0x00, 0x00, ...Buffer.from('TODO inside binary\n')]),
};

/** Created as an empty directory: glob must never list directories. */
export const SEARCH_EMPTY_DIRECTORY = 'tree/empty-dir';

function text(value: string): Uint8Array {
  return new Uint8Array(Buffer.from(value, 'utf8'));
}

export type SearchCase =
  | { name: string; glob: GlobRequest; expected: SearchResult }
  | { name: string; grep: GrepRequest; expected: SearchResult };

const ALL_TODO_MATCHES = [
  { path: 'tree/.env', line: 1, text: 'SECRET=TODO' },
  { path: 'tree/README.md', line: 2, text: 'TODO: write the docs' },
  { path: 'tree/docs/guide.md', line: 3, text: 'TODO one' },
  { path: 'tree/docs/guide.md', line: 4, text: 'TODO two' },
  { path: 'tree/long/line.txt', line: 1, text: LONG_LINE.slice(0, 1000) },
  { path: 'tree/notes.txt', line: 2, text: 'beta TODO gamma' },
  { path: 'tree/notes.txt', line: 3, text: 'TODO' },
  { path: 'tree/src/app.test.ts', line: 1, text: "test('TODO')" },
  { path: 'tree/src/index.ts', line: 1, text: 'export const a = 1; // TODO tidy' },
  { path: 'tree/src/util/.hidden.ts', line: 1, text: '// TODO hidden' },
  { path: 'tree/ünïcode/naïve.txt', line: 1, text: 'café TODO ☕' },
];

const FILES_WITH_TODO = [
  'tree/.env',
  'tree/README.md',
  'tree/docs/guide.md',
  'tree/long/line.txt',
  'tree/notes.txt',
  'tree/src/app.test.ts',
  'tree/src/index.ts',
  'tree/src/util/.hidden.ts',
  'tree/ünïcode/naïve.txt',
];

const TS_FILES = ['tree/src/app.test.ts', 'tree/src/index.ts', 'tree/src/util/.hidden.ts', 'tree/src/util/strings.ts'];

const paths = (list: string[], truncated = false): SearchResult => ({ kind: 'paths', paths: list, truncated });
const matches = (list: typeof ALL_TODO_MATCHES, truncated = false): SearchResult => ({ kind: 'matches', matches: list, truncated });
const base = SEARCH_BASE;

export const SEARCH_CASES: SearchCase[] = [
  {
    name: 'glob **/*.ts finds files at every depth, dotfiles included, sorted',
    glob: { pattern: '**/*.ts', baseDir: base, limit: 100 },
    expected: paths(TS_FILES),
  },
  {
    name: 'glob *.md matches only directly under the base directory',
    glob: { pattern: '*.md', baseDir: base, limit: 100 },
    expected: paths(['tree/README.md']),
  },
  {
    name: 'glob * lists files only, never directories',
    glob: { pattern: '*', baseDir: base, limit: 100 },
    expected: paths(['tree/.env', 'tree/README.md', 'tree/notes.txt']),
  },
  {
    name: 'glob with a nested base directory answers workspace-relative paths',
    glob: { pattern: '**/*', baseDir: 'tree/src', limit: 100 },
    expected: paths(TS_FILES),
  },
  {
    name: 'glob past its limit returns the first paths in order and sets truncated',
    glob: { pattern: '**/*', baseDir: base, limit: 3 },
    expected: paths(['tree/.env', 'tree/README.md', 'tree/assets/logo.bin'], true),
  },
  {
    name: 'glob matches non-ASCII names',
    glob: { pattern: '**/naïve.*', baseDir: base, limit: 100 },
    expected: paths(['tree/ünïcode/naïve.txt']),
  },
  {
    name: 'glob without a match answers an empty list',
    glob: { pattern: '**/*.py', baseDir: base, limit: 100 },
    expected: paths([]),
  },
  {
    name: 'grep content mode answers every matching line in path then line order, skipping binary files',
    grep: { query: 'TODO', baseDir: base, mode: 'content', limit: 100 },
    expected: matches(ALL_TODO_MATCHES),
  },
  {
    name: 'grep files_with_matches mode answers each matching file once',
    grep: { query: 'TODO', baseDir: base, mode: 'files_with_matches', limit: 100 },
    expected: paths(FILES_WITH_TODO),
  },
  {
    name: 'grep with include searches only the files the glob selects',
    grep: { query: 'TODO', baseDir: base, include: '**/*.ts', mode: 'content', limit: 100 },
    expected: matches(ALL_TODO_MATCHES.filter((match) => match.path.endsWith('.ts'))),
  },
  {
    name: 'grep with a nested base directory searches only below it',
    grep: { query: 'TODO', baseDir: 'tree/docs', mode: 'files_with_matches', limit: 100 },
    expected: paths(['tree/docs/guide.md']),
  },
  {
    name: 'grep is literal and case-sensitive',
    grep: { query: 'todo', baseDir: base, mode: 'content', limit: 100 },
    expected: matches([{ path: 'tree/src/util/strings.ts', line: 2, text: "export const s = 'todo lowercase';" }]),
  },
  {
    name: 'grep treats regular-expression characters literally',
    grep: { query: "('TODO')", baseDir: base, mode: 'content', limit: 100 },
    expected: matches([{ path: 'tree/src/app.test.ts', line: 1, text: "test('TODO')" }]),
  },
  {
    name: 'grep content past its limit returns the first matches and sets truncated',
    grep: { query: 'TODO', baseDir: base, mode: 'content', limit: 3 },
    expected: matches(ALL_TODO_MATCHES.slice(0, 3), true),
  },
  {
    name: 'grep files_with_matches past its limit returns the first files and sets truncated',
    grep: { query: 'TODO', baseDir: base, mode: 'files_with_matches', limit: 2 },
    expected: paths(FILES_WITH_TODO.slice(0, 2), true),
  },
  {
    name: 'grep without a match answers an empty list',
    grep: { query: 'NOT-PRESENT-ANYWHERE', baseDir: base, mode: 'content', limit: 100 },
    expected: matches([]),
  },
];
