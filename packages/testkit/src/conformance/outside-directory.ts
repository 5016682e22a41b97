import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';

/**
 * A host directory outside every workspace, holding a sentinel file whose content is unique to
 * the test: what a symbolic link planted in a workspace points at. The content appearing in any
 * answer means the provider read it; a change of the tree means it wrote, created or removed.
 */
export interface OutsideDirectory {
  /** Absolute host path of the directory (a real path). */
  readonly path: string;
  /** The sentinel file's text, unique to this directory. */
  readonly sentinel: string;
  /** Fails when `value` (bytes, text, or anything JSON-serialisable) holds the sentinel's text, its base64 or its sha256. */
  expectNotIn(value: unknown, what: string): void;
  /** Fails when anything in the directory was written, created or removed since it was made. */
  expectUntouched(): void;
  remove(): void;
}

/** Every entry under `root` with its kind and content: what `expectUntouched` compares. */
function treeOf(root: string): Record<string, string> {
  const tree: Record<string, string> = {};
  const visit = (relative: string) => {
    for (const name of readdirSync(join(root, relative))) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const info = lstatSync(join(root, path));
      if (info.isDirectory()) {
        tree[path] = 'directory';
        visit(path);
      } else {
        tree[path] = info.isFile() ? `file ${readFileSync(join(root, path), 'utf8')}` : 'other';
      }
    }
  };
  visit('');
  return tree;
}

function textOf(value: unknown): string {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1');
  if (typeof value === 'string') return value;
  return JSON.stringify(value, (_key, inner: unknown) => (inner instanceof Uint8Array ? Buffer.from(inner).toString('latin1') : inner)) ?? '';
}

/** Makes the directory: `sentinel.txt` and `inner/sentinel.txt`, both holding the sentinel. */
export function makeOutsideDirectory(): OutsideDirectory {
  const path = mkdtempSync(join(tmpdir(), 'runtimectl-outside-'));
  const sentinel = `runtimectl-sentinel-${randomBytes(12).toString('hex')}`;
  writeFileSync(join(path, 'sentinel.txt'), sentinel);
  mkdirSync(join(path, 'inner'));
  writeFileSync(join(path, 'inner', 'sentinel.txt'), sentinel);
  const before = treeOf(path);
  const forms = {
    content: sentinel,
    // As an API answer carries a file read whole (`content_base64`).
    'base64 of the content': Buffer.from(sentinel).toString('base64'),
    sha256: createHash('sha256').update(sentinel).digest('hex'),
  };
  return {
    path,
    sentinel,
    expectNotIn(value, what) {
      const seen = textOf(value);
      for (const [form, shown] of Object.entries(forms)) {
        expect(seen.includes(shown), `${what} holds the ${form} of a file outside the workspace`).toBe(false);
      }
    },
    expectUntouched() {
      expect(treeOf(path), 'the directory outside the workspace (nothing written, created or removed)').toEqual(before);
    },
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}
