import type { ManifestEntry } from '@runtimectl/provider';
import { shellQuote } from './exec/shell-quote';

/** Exit status of the manifest script when the workspace directory cannot be entered. */
export const NO_WORKSPACE_EXIT = 3;

/**
 * The one command that lists the workspace at `root` for its manifest, inside the sandbox:
 * every directory, regular file and symlink (never followed) as NUL-separated fields
 * `type, octal mode, size, path, link target`, then a `H` record, then `sha256sum -z` of every
 * regular file (NUL-terminated lines, names unescaped). All of it base64-encoded, so any byte
 * of a name (a newline, a space, invalid UTF-8) reaches the parser as it is.
 */
export function manifestScript(root: string): string {
  const list = `find . -mindepth 1 \\( -type d -o -type f -o -type l \\) -printf '%y\\0%m\\0%s\\0%P\\0%l\\0'`;
  const hashes = 'find . -mindepth 1 -type f -print0 | xargs -0 -r sha256sum -z -- 2>/dev/null';
  return `cd -- ${shellQuote(root)} 2>/dev/null || exit ${NO_WORKSPACE_EXIT}\n{ ${list}; printf 'H\\0'; ${hashes}; } | base64 -w 0`;
}

const KINDS: Record<string, ManifestEntry['kind']> = { d: 'directory', f: 'file', l: 'symlink' };
const HASH_LINE = /^([0-9a-f]{64}) [ *]\.\/([\s\S]*)$/;

/** The workspace changed (a file vanished) between the listing and the hashing, or a file could not be read. */
export class ManifestIncompleteError extends Error {}

/** Parses the (base64) output of `manifestScript` into manifest entries. Throws on output it cannot read whole. */
export function parseManifestOutput(base64: string): ManifestEntry[] {
  const fields = Buffer.from(base64.trim(), 'base64').toString('utf8').split('\0');
  const entries: ManifestEntry[] = [];
  let at = 0;
  while (at < fields.length && fields[at] !== 'H') {
    const [type, mode, size, path, target] = fields.slice(at, at + 5);
    const kind = KINDS[type ?? ''];
    if (!kind || path === undefined || target === undefined || path === '') throw new TypeError('unreadable manifest listing');
    entries.push({
      path,
      kind,
      mode: Number.parseInt(mode ?? '', 8),
      size: kind === 'directory' ? 0 : kind === 'symlink' ? Buffer.byteLength(target) : Number(size),
      target: kind === 'symlink' ? target : null,
      hash: null,
    });
    at += 5;
  }
  if (fields[at] !== 'H') throw new TypeError('unreadable manifest listing');
  const hashes = new Map<string, string>();
  for (const line of fields.slice(at + 1)) {
    if (line === '') continue;
    const match = HASH_LINE.exec(line);
    if (!match) throw new TypeError('unreadable manifest hash line');
    hashes.set(match[2]!, match[1]!);
  }
  let unhashed = 0;
  for (const entry of entries) {
    if (entry.kind !== 'file') continue;
    entry.hash = hashes.get(entry.path) ?? null;
    if (entry.hash === null) unhashed += 1;
  }
  if (unhashed > 0) throw new ManifestIncompleteError(`${unhashed} file(s) of the workspace could not be read (removed or unreadable while the manifest was taken)`);
  return entries;
}
