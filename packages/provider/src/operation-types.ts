import type { PathKind } from './wire-types';

/** What stat reports. A missing path is `{exists:false}`, never an error. */
export interface PathStat {
  exists: boolean;
  kind: PathKind | null;
  sizeBytes: number | null;
  modifiedAtMs: number | null;
}

export interface ReadBytesOptions {
  /**
   * Largest file the read answers: a bigger one (or a special file that never ends) raises
   * `FileTooLargeError` after at most `maxBytes + 1` bytes were read. No limit when absent.
   */
  maxBytes?: number;
}

export interface ExecRequest {
  command: string;
  /** Shell that runs `command` as `<shell> -c <command>`; the provider's default when absent. */
  shell?: string;
  /** Working directory; the workspace root when absent. */
  cwd?: string;
  /** Exactly the extra variables the caller asked for; providers never pass the daemon's own env. */
  env?: Record<string, string>;
  /** Kill the whole process tree after this long and report `timedOut: true`. */
  timeoutMs?: number;
  /** Bytes kept of stdout and of stderr each; more is dropped and `truncated` set. */
  maxOutputBytes: number;
}

/** A finished command. A non-zero exit is a result, not an error. */
export interface ExecResult {
  stdout: Uint8Array;
  stderr: Uint8Array;
  /** null when the process did not exit normally (killed by a signal, e.g. on timeout). */
  exitCode: number | null;
  timedOut: boolean;
  truncated: boolean;
}

export interface GlobRequest {
  /** Glob (search/glob-syntax.ts) over paths relative to `baseDir`; dotfiles included; files only. */
  pattern: string;
  baseDir?: string;
  limit: number;
}

export interface GrepRequest {
  /** Literal text, case-sensitive. */
  query: string;
  baseDir?: string;
  /** Glob (search/glob-syntax.ts) over paths relative to `baseDir` restricting the files searched. */
  include?: string;
  mode: 'content' | 'files_with_matches';
  limit: number;
  /**
   * Files holding more bytes than this are passed over, unread beyond `maxFileBytes + 1` (as
   * ripgrep's `--max-filesize`): core sends the daemon's read-file limit. No limit when absent.
   */
  maxFileBytes?: number;
}

export interface GrepLineMatch {
  path: string;
  /** 1-based. */
  line: number;
  /** The matching line without its newline, cut to 1,000 characters. */
  text: string;
}

/** Search answers: paths are relative to the workspace root, POSIX separators, sorted. */
export type SearchResult =
  | { kind: 'paths'; paths: string[]; truncated: boolean }
  | { kind: 'matches'; matches: GrepLineMatch[]; truncated: boolean };

export interface TempPathRequest {
  kind: 'file' | 'directory';
  prefix?: string;
  suffix?: string;
}

export interface ExportedFile {
  fileName: string;
  sizeBytes: number;
  content: AsyncIterable<Uint8Array>;
}
