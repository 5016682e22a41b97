import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { InvalidRequestError, PathNotFoundError, WorkspacePaths, type ManifestEntry, type PathStat } from '@runtimectl/provider';

interface FileEntry {
  content: Uint8Array;
  modifiedAtMs: number;
}

/** A workspace held in memory: files and directories under absolute POSIX paths. */
export class MemoryFileSystem {
  readonly #files = new Map<string, FileEntry>();
  readonly #directories = new Map<string, number>();
  readonly #paths: WorkspacePaths;

  constructor(readonly root = '/workspace') {
    this.#paths = new WorkspacePaths(root);
    this.mkdirAll(root);
  }

  /** A deep copy: what a snapshot of this workspace holds. */
  clone(): MemoryFileSystem {
    const copy = new MemoryFileSystem(this.root);
    for (const [path, modifiedAtMs] of this.#directories) copy.#directories.set(path, modifiedAtMs);
    for (const [path, entry] of this.#files) copy.#files.set(path, { content: entry.content.slice(), modifiedAtMs: entry.modifiedAtMs });
    return copy;
  }

  /** The absolute path of `path`; `InvalidRequestError` when it leaves the workspace (the shared path rule). */
  resolve(path: string): string {
    return this.#paths.resolve(path);
  }

  /** Workspace-relative path of an absolute one ('' for the root). */
  relative(absolute: string): string {
    return posix.relative(this.root, absolute);
  }

  stat(path: string): PathStat {
    const absolute = this.resolve(path);
    const file = this.#files.get(absolute);
    if (file) return { exists: true, kind: 'file', sizeBytes: file.content.byteLength, modifiedAtMs: file.modifiedAtMs };
    const directory = this.#directories.get(absolute);
    if (directory !== undefined) return { exists: true, kind: 'directory', sizeBytes: 0, modifiedAtMs: directory };
    return { exists: false, kind: null, sizeBytes: null, modifiedAtMs: null };
  }

  read(path: string): Uint8Array {
    const absolute = this.resolve(path);
    const file = this.#files.get(absolute);
    if (!file) {
      if (this.#directories.has(absolute)) throw new InvalidRequestError(`${path} is a directory`, { path });
      throw new PathNotFoundError(path);
    }
    return file.content.slice();
  }

  write(path: string, content: Uint8Array): { path: string; created: boolean } {
    const absolute = this.resolve(path);
    if (this.#directories.has(absolute)) throw new InvalidRequestError(`${path} is a directory`, { path });
    this.#mkdirChain(posix.dirname(absolute), path);
    const created = !this.#files.has(absolute);
    this.#files.set(absolute, { content: content.slice(), modifiedAtMs: Date.now() });
    return { path, created };
  }

  mkdirAll(path: string): void {
    this.#mkdirChain(this.resolve(path), path);
  }

  /** Creates `absolute` and every directory above it (the root's parents included, as on a disk). */
  #mkdirChain(absolute: string, path: string): void {
    const chain: string[] = [];
    for (let current = absolute; ; current = posix.dirname(current)) {
      chain.unshift(current);
      if (current === '/') break;
    }
    for (const directory of chain) {
      if (this.#files.has(directory)) throw new InvalidRequestError(`${directory} is a file`, { path });
      if (!this.#directories.has(directory)) this.#directories.set(directory, Date.now());
    }
  }

  exists(path: string): boolean {
    return this.stat(path).exists;
  }

  /** The workspace's content manifest (files 0644, directories 0755: this file system keeps no modes). */
  manifest(): ManifestEntry[] {
    const entries: ManifestEntry[] = [];
    const prefix = this.root === '/' ? '/' : `${this.root}/`;
    for (const path of this.#directories.keys()) {
      if (path.startsWith(prefix)) entries.push({ path: this.relative(path), kind: 'directory', mode: 0o755, size: 0, target: null, hash: null });
    }
    for (const [path, { content }] of this.#files) {
      if (!path.startsWith(prefix)) continue;
      const hash = createHash('sha256').update(content).digest('hex');
      entries.push({ path: this.relative(path), kind: 'file', mode: 0o644, size: content.byteLength, target: null, hash });
    }
    return entries;
  }

  /** Workspace-relative paths of every file under the workspace-relative `baseDir`. */
  filesUnder(baseDir: string): string[] {
    const base = this.resolve(baseDir);
    const prefix = base === '/' ? '/' : `${base}/`;
    return [...this.#files.keys()].filter((path) => path.startsWith(prefix)).map((path) => this.relative(path));
  }
}
