import type { SearchTree } from '@runtimectl/provider';
import { BatchedFileReader } from './batched-file-reader';
import { shellQuote } from './exec/shell-quote';

/** Runs a script in the sandbox and resolves with its stdout. */
export type RunScript = (script: string) => Promise<string>;
/**
 * Reads a workspace file's bytes; undefined when it vanished or is no longer a file. With
 * `maxBytes`, a larger file raises `FileTooLargeError` after at most `maxBytes + 1` bytes.
 */
export type ReadWorkspaceFile = (path: string, maxBytes?: number) => Promise<Uint8Array | undefined>;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether `grep -F` in the C locale finds every file whose UTF-8 text contains `query`: core
 * decodes bytes as UTF-8 (invalid bytes become U+FFFD) and splits lines on `\n`, so queries with
 * those, NUL, or lone surrogates are left to core alone.
 */
function narrowsByGrep(query: string): boolean {
  return query !== '' && !/[\n\0\uFFFD]/.test(query) && !LONE_SURROGATE.test(query);
}

function decodePaths(encoded: string): string[] {
  return Buffer.from(encoded, 'base64')
    .toString('utf8')
    .split('\0')
    .filter((path) => path !== '')
    .map((path) => path.replace(/^\.\//, ''));
}

/**
 * The sandbox's workspace as core's `globFiles`/`grepFiles` see it, so E2B answers equal every
 * other provider's for the same tree. Files are listed with one `find -type f` (regular files,
 * symbolic links not followed, as `grep -r` and the local provider do). For grep with a literal
 * query, `grep -rlF` in the C locale first narrows the files to read to those holding the
 * query's bytes — a superset of core's matches, which core then decides — so only candidates
 * cross the network, read in batches (`BatchedFileReader`). Paths travel NUL-separated and
 * base64-encoded, whatever their bytes.
 */
export function sandboxSearchTree(root: string, run: RunScript, read: ReadWorkspaceFile, grepQuery?: string): SearchTree {
  const enter = `cd -- ${shellQuote(root)} 2>/dev/null || { printf '\\n0\\n'; exit 0; }`;
  const start = (baseDir: string) => shellQuote(baseDir === '' ? '.' : `./${baseDir}`);
  let reader: BatchedFileReader | undefined;
  const listed = (paths: string[]) => {
    reader = new BatchedFileReader(root, paths, run, read);
    return paths;
  };
  const findAll = async (baseDir: string) => {
    const output = await run(`${enter}\nfind ${start(baseDir)} -type f -print0 2>/dev/null | base64 -w 0; printf '\\n0\\n'`);
    return listed(decodePaths(output.split('\n')[0] ?? ''));
  };
  return {
    async listFiles(baseDir) {
      if (grepQuery === undefined || !narrowsByGrep(grepQuery)) return findAll(baseDir);
      const script = [
        enter,
        `out=$(LC_ALL=C grep -rlFZ -D skip -e ${shellQuote(grepQuery)} -- ${start(baseDir)} 2>/dev/null | base64 -w 0; exit "\${PIPESTATUS[0]}"); s=$?`,
        `printf '%s\\n%d\\n' "$out" "$s"`,
      ].join('\n');
      const [encoded = '', status = ''] = (await run(script)).split('\n');
      // 0: matches, 1: none. Anything else (no grep, an unreadable file) falls back to every file.
      if (status === '0') return listed(decodePaths(encoded));
      if (status === '1') return listed([]);
      return findAll(baseDir);
    },
    async readFile(path, maxBytes) {
      return (await (reader ? reader.read(path, maxBytes) : read(path, maxBytes))) ?? new Uint8Array();
    },
  };
}
