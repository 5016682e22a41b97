import { FileTooLargeError } from '../errors/request-errors';
import type { GrepLineMatch, GrepRequest, SearchResult } from '../operation-types';
import { GlobMatcher, type StepMeter } from './glob-matcher';

/**
 * The one definition of glob and grep answers, so every provider gives the same results for
 * the same tree. Paths are relative to the workspace root with POSIX separators; `baseDir` is
 * workspace-relative too ('' for the root). Patterns (glob-syntax.ts) match paths relative to
 * `baseDir`, dotfiles included. Results are sorted; `limit` cuts them and sets `truncated`.
 */
export interface SearchTree {
  /** Every regular file under the workspace-relative `baseDir`, workspace-relative. */
  listFiles(baseDir: string): Promise<string[]>;
  /**
   * A listed file's bytes. With `maxBytes`, a file holding more raises `FileTooLargeError` after
   * at most `maxBytes + 1` bytes were read (grep then passes it over).
   */
  readFile(path: string, maxBytes?: number): Promise<Uint8Array>;
}

const MAX_LINE_CHARS = 1000;
const BINARY_SNIFF_BYTES = 8000;

/** Matching work (automaton steps, plus each name's length) between two yields to the event loop. */
const STEPS_BETWEEN_YIELDS = 100_000;

/**
 * The files under `baseDir` that `pattern` matches, sorted. Matching is linear in each name
 * (glob-matcher.ts) and yields to the event loop every STEPS_BETWEEN_YIELDS steps, so no pattern
 * and no tree, however large, keeps the daemon from answering other requests meanwhile.
 */
async function underBase(files: string[], baseDir: string, pattern: string | undefined): Promise<string[]> {
  const prefix = baseDir === '' ? '' : `${baseDir}/`;
  const matcher = pattern === undefined ? null : new GlobMatcher(pattern);
  const meter: StepMeter = { steps: 0 };
  let yieldAt = STEPS_BETWEEN_YIELDS;
  const matched: string[] = [];
  for (const file of files) {
    meter.steps += file.length + 1;
    if (file.startsWith(prefix) && (matcher === null || matcher.matches(file.slice(prefix.length), meter))) matched.push(file);
    if (meter.steps >= yieldAt) {
      yieldAt = meter.steps + STEPS_BETWEEN_YIELDS;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return matched.sort();
}

export async function globFiles(tree: SearchTree, baseDir: string, pattern: string, limit: number): Promise<SearchResult> {
  const matched = await underBase(await tree.listFiles(baseDir), baseDir, pattern);
  return { kind: 'paths', paths: matched.slice(0, limit), truncated: matched.length > limit };
}

/**
 * Binary files (a NUL byte in their first 8,000 bytes) are skipped, as grep's -I does, and so are
 * files over `request.maxFileBytes`, as ripgrep's --max-filesize does.
 */
export async function grepFiles(tree: SearchTree, baseDir: string, request: Omit<GrepRequest, 'baseDir'>): Promise<SearchResult> {
  const files = await underBase(await tree.listFiles(baseDir), baseDir, request.include);
  const paths: string[] = [];
  const matches: GrepLineMatch[] = [];
  let truncated = false;
  for (const path of files) {
    const bytes = await readUnlessTooLarge(tree, path, request.maxFileBytes);
    if (bytes === undefined) continue;
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) continue;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    if (!text.includes(request.query)) continue;
    if (request.mode === 'files_with_matches') {
      if (paths.length === request.limit) {
        truncated = true;
        break;
      }
      paths.push(path);
      continue;
    }
    const lines = text.split('\n');
    for (let index = 0; index < lines.length; index += 1) {
      const line = lines[index]!;
      if (!line.includes(request.query)) continue;
      if (matches.length === request.limit) {
        truncated = true;
        break;
      }
      matches.push({ path, line: index + 1, text: line.slice(0, MAX_LINE_CHARS) });
    }
    if (truncated) break;
  }
  return request.mode === 'files_with_matches'
    ? { kind: 'paths', paths, truncated }
    : { kind: 'matches', matches, truncated };
}

async function readUnlessTooLarge(tree: SearchTree, path: string, maxBytes: number | undefined): Promise<Uint8Array | undefined> {
  try {
    return await tree.readFile(path, maxBytes);
  } catch (error) {
    if (FileTooLargeError.isInstance(error)) return undefined;
    throw error;
  }
}
