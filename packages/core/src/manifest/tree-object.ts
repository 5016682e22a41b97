import { createHash } from 'node:crypto';
import { nameBytes, nameFromBytes, type ManifestEntryKind } from '@runtimectl/provider';

const NUL_BYTE = Buffer.of(0);

/**
 * One child of a directory in a tree object. A directory child names its own tree by `hash`;
 * a file names its content hash; a symlink carries its `target` (and no hash).
 */
export interface TreeChild {
  name: string;
  kind: ManifestEntryKind;
  mode: number;
  size: number;
  /** Content hash (file) or tree hash (directory), lowercase sha256 hex; null for a symlink. */
  hash: string | null;
  /** A symlink's target; null otherwise. */
  target: string | null;
}

/** A stored tree object: its hash and the canonical encoding it is the sha256 of. */
export interface TreeObject {
  hash: string;
  body: Uint8Array;
}

const TAGS: Record<ManifestEntryKind, number> = { file: 0x66 /* f */, directory: 0x64 /* d */, symlink: 0x6c /* l */ };
const KINDS = new Map<number, ManifestEntryKind>(Object.entries(TAGS).map(([kind, tag]) => [tag, kind as ManifestEntryKind]));
const SPACE = 0x20;
const NUL = 0;
const HASH_BYTES = 32;
const HEX_HASH = /^[0-9a-f]{64}$/;

/** Orders children by name, comparing UTF-16 code units (JavaScript's `<`): the one order every encoder uses. */
export function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The canonical encoding of one directory (as git's trees, with sizes): its children sorted by
 * name (`byName`), each as
 *
 *     <tag> SP <mode, octal> SP <size, decimal> SP <name, as bytes> NUL <payload>
 *
 * where tag is `f` (file), `d` (directory) or `l` (symlink) and payload is the 32 raw bytes of
 * the content or tree hash, or, for a symlink, its target's bytes followed by NUL. A name is its
 * bytes (`nameBytes`: UTF-8, or the exact bytes of one a path escapes), so two names that decode
 * alike never share an encoding. Names and targets never hold NUL (POSIX). The tree's hash is the
 * sha256 of these bytes, as lowercase hex: equal directories have equal hashes, so an unchanged
 * subtree is stored once and a diff skips it by comparing two hashes.
 */
export function encodeTree(children: readonly TreeChild[]): TreeObject {
  const sorted = [...children].sort(byName);
  const parts: Buffer[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const child = sorted[i]!;
    if (i > 0 && sorted[i - 1]!.name === child.name) throw new TypeError(`the tree names ${JSON.stringify(child.name)} twice`);
    if (child.name === '' || child.name.includes('/') || child.name.includes('\0')) throw new TypeError(`${JSON.stringify(child.name)} is not a file name`);
    parts.push(Buffer.from(`${String.fromCharCode(TAGS[child.kind])} ${child.mode.toString(8)} ${child.size} `), nameBytes(child.name), NUL_BYTE);
    if (child.kind === 'symlink') {
      parts.push(nameBytes(child.target ?? ''), NUL_BYTE);
    } else {
      if (child.hash === null || !HEX_HASH.test(child.hash)) throw new TypeError(`${JSON.stringify(child.name)} has no sha256 hash`);
      parts.push(Buffer.from(child.hash, 'hex'));
    }
  }
  const body = new Uint8Array(Buffer.concat(parts));
  return { hash: treeHash(body), body };
}

/** The hash of an encoded tree: sha256 of its bytes, lowercase hex. */
export function treeHash(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

/** Reads a tree object back into its children (in stored order). Throws on a malformed body. */
export function decodeTree(body: Uint8Array): TreeChild[] {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const children: TreeChild[] = [];
  let at = 0;
  while (at < bytes.length) {
    const kind = KINDS.get(bytes[at]!);
    if (kind === undefined || bytes[at + 1] !== SPACE) throw new TypeError('malformed tree object');
    const modeEnd = bytes.indexOf(SPACE, at + 2);
    const sizeEnd = modeEnd < 0 ? -1 : bytes.indexOf(SPACE, modeEnd + 1);
    const nameEnd = sizeEnd < 0 ? -1 : bytes.indexOf(NUL, sizeEnd + 1);
    if (nameEnd < 0) throw new TypeError('malformed tree object');
    const mode = Number.parseInt(bytes.toString('latin1', at + 2, modeEnd), 8);
    const size = Number(bytes.toString('latin1', modeEnd + 1, sizeEnd));
    const name = nameFromBytes(bytes.subarray(sizeEnd + 1, nameEnd));
    at = nameEnd + 1;
    if (kind === 'symlink') {
      const targetEnd = bytes.indexOf(NUL, at);
      if (targetEnd < 0) throw new TypeError('malformed tree object');
      children.push({ name, kind, mode, size, hash: null, target: nameFromBytes(bytes.subarray(at, targetEnd)) });
      at = targetEnd + 1;
    } else {
      if (at + HASH_BYTES > bytes.length) throw new TypeError('malformed tree object');
      children.push({ name, kind, mode, size, hash: bytes.toString('hex', at, at + HASH_BYTES), target: null });
      at += HASH_BYTES;
    }
  }
  return children;
}
