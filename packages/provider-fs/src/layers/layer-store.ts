import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rename } from 'node:fs/promises';
import { namesIn, readJsonIfPresent } from '../absent-files';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OWNER_ONLY_DIRECTORY_MODE, removeTree } from '@runtimectl/provider-local';
import type { CrashPointHook } from '../crash-points';
import { fsyncDirectory, writeFileDurably } from '../durable-files';
import { copyTree } from './copy-tree';
import { stripSetIdBits } from './strip-set-id';

/** A sealed layer: a tree in overlayfs' format that never changes again, and the layer below it. */
export interface LayerRecord {
  id: string;
  /** The layer below; null only for the empty layer every chain ends with. */
  parent: string | null;
  /** How many layers are below it in its lineage (its chain may be shorter: see `flattenedAs`). */
  depth: number;
  createdAt: string;
  /**
   * A layer over the empty one holding this layer's whole tree (its chain merged, copied once):
   * chains through this layer go through that one instead, so they stay short (see `chain`).
   */
  flattenedAs?: string;
}

/** The layer at the bottom of every chain: nothing. A fresh workspace's chain is this alone. */
export const EMPTY_LAYER = 'empty';

const LAYER_ID = /^(empty|l_[0-9a-f]{16})$/;

/** A fresh layer id: short, so a deep chain fits one mount's options. */
export const newLayerId = () => `l_${randomBytes(8).toString('hex')}`;

/** Bound on copying a workspace's changes into a layer. */
const COPY_TIMEOUT_MS = 10 * 60_000;

const run = promisify(execFile);

/**
 * Sealed layers under `<directory>/layers/<id>/`: `root` (the tree) and `layer.json` (its
 * record). Ids are short (`l_` and 16 hex digits) so a deep chain still fits the page of options
 * one mount takes; paths handed to a mount are relative to `directory`.
 */
export class LayerStore {
  readonly #layers: string;

  constructor(
    readonly directory: string,
    /** The crash tests' seam (see crash-points.ts). */
    readonly crashPoint?: CrashPointHook,
  ) {
    this.#layers = join(directory, 'layers');
  }

  /** The layer's tree, relative to `directory` (for the mount's `lowerdir`). */
  rootOf(id: string): string {
    if (!LAYER_ID.test(id)) throw new TypeError(`not a layer id: ${id}`);
    return join('layers', id, 'root');
  }

  /** The layer's tree, as an absolute path. */
  absoluteRootOf(id: string): string {
    return join(this.directory, this.rootOf(id));
  }

  /** Makes the empty layer (idempotent): the bottom of every chain. */
  async ensureEmpty(): Promise<void> {
    if (await this.record(EMPTY_LAYER)) return;
    await mkdir(join(this.#layers, EMPTY_LAYER, 'root'), { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    await this.#writeRecord({ id: EMPTY_LAYER, parent: null, depth: 0, createdAt: new Date().toISOString() });
  }

  /**
   * Seals `upper` (an overlay's upper directory, unmounted, on this store's file system) as a new
   * layer over `parent` by renaming it: nothing is copied (setuid and setgid bits are stripped
   * first, see `stripSetIdBits`). The record is written first,
   * so a layer directory without its tree is one a crash interrupted. `id`: one chosen
   * beforehand (written ahead in the workspace's record).
   */
  async sealByRename(upper: string, parent: string, id = newLayerId()): Promise<LayerRecord> {
    const record = await this.#begin(parent, id);
    await stripSetIdBits(upper);
    await rename(upper, this.absoluteRootOf(record.id));
    await fsyncDirectory(join(this.#layers, record.id));
    return record;
  }

  /**
   * Seals a copy of `upper` (of a mounted overlay, whose processes may run) as a new layer over
   * `parent`: `cp -a`, whiteouts, opaque marks and hard links included (see `#sealCopyOf`).
   */
  async sealByCopy(upper: string, parent: string): Promise<LayerRecord> {
    return this.#sealCopyOf(upper, await this.#begin(parent, newLayerId()), "the workspace's changes");
  }

  /**
   * Flattens layer `id`: copies `tree` (a read-only mount of its chain: its whole tree, merged)
   * into a new layer over the empty one, then records it as `id`'s `flattenedAs`, so every chain
   * through `id` is two layers long from then on. A crash before that record leaves a layer that
   * nothing names (collected). Resolves the new layer's record.
   */
  async flatten(id: string, tree: string): Promise<LayerRecord> {
    const flattened = await this.#sealCopyOf(tree, await this.#begin(EMPTY_LAYER, newLayerId()), 'a chain of layers');
    this.crashPoint?.('flatten-copied');
    const record = await this.record(id);
    if (!record) throw new Error(`layer ${id} does not exist`);
    await this.#writeRecord({ ...record, flattenedAs: flattened.id });
    return flattened;
  }

  /**
   * Copies `tree` into the layer `record` began (`copyTree`: `cp -a`, past PATH_MAX too, into a temporary name renamed into
   * place once whole, made durable first, with no setuid or setgid bit: see `stripSetIdBits`).
   * On failure the layer is removed and the error names `what` was copied.
   */
  async #sealCopyOf(tree: string, record: LayerRecord, what: string): Promise<LayerRecord> {
    const copying = join(this.#layers, record.id, 'root.copying');
    try {
      await copyTree(tree, copying, COPY_TIMEOUT_MS);
      await stripSetIdBits(copying);
      await run('sync', ['-f', copying], { timeout: COPY_TIMEOUT_MS }).catch(() => undefined);
      await rename(copying, this.absoluteRootOf(record.id));
      await fsyncDirectory(join(this.#layers, record.id));
      return record;
    } catch (error) {
      await removeTree(join(this.#layers, record.id)).catch(() => undefined);
      throw new Error(`could not copy ${what} into a layer (${String((error as { stderr?: unknown }).stderr ?? '').trim().split('\n')[0] || 'cp failed'})`, { cause: error });
    }
  }

  async #begin(parent: string, id: string): Promise<LayerRecord> {
    const below = await this.record(parent);
    if (!below) throw new Error(`layer ${parent} does not exist`);
    const record: LayerRecord = { id, parent, depth: below.depth + 1, createdAt: new Date().toISOString() };
    await mkdir(join(this.#layers, record.id), { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    await this.#writeRecord(record);
    return record;
  }

  /** The layer's record, or null when there is no such (whole) layer. */
  async record(id: string): Promise<LayerRecord | null> {
    if (!LAYER_ID.test(id)) return null;
    return readJsonIfPresent<LayerRecord>(join(this.#layers, id, 'layer.json'));
  }

  /**
   * The chain of layer `id`, top first, as it is mounted: each layer, then the one below it, down
   * to the empty layer — except that a layer that was flattened (and everything below it) is
   * replaced by the layer that holds its whole tree (`flattenedAs`, over the empty layer).
   */
  async chain(id: string): Promise<string[]> {
    return (await this.#walk(id)).mounted;
  }

  /** Every layer chain `id` needs: those it mounts, and those whose records lead to them (a flattened layer's). */
  async needed(id: string): Promise<string[]> {
    const { mounted, read } = await this.#walk(id);
    return [...read, ...mounted];
  }

  async #walk(id: string): Promise<{ mounted: string[]; read: string[] }> {
    const mounted: string[] = [];
    const read: string[] = [];
    for (let at: string | null = id; at !== null; ) {
      const record: LayerRecord | null = await this.record(at);
      if (!record) throw new Error(`layer ${at} of the chain of ${id} is missing`);
      read.push(record.id);
      const flattened = record.flattenedAs === undefined ? null : await this.record(record.flattenedAs);
      mounted.push(flattened?.id ?? record.id);
      at = flattened ? flattened.parent : record.parent;
    }
    return { mounted, read };
  }

  /** Every layer id in the store. */
  async ids(): Promise<string[]> {
    return (await namesIn(this.#layers)).filter((name) => LAYER_ID.test(name));
  }

  /** Removes layer `id` (garbage: nothing names it). Idempotent. */
  async remove(id: string): Promise<void> {
    if (!LAYER_ID.test(id) || id === EMPTY_LAYER) throw new TypeError(`not a removable layer: ${id}`);
    await removeTree(join(this.#layers, id));
    this.crashPoint?.('layer-removed');
  }

  async #writeRecord(record: LayerRecord): Promise<void> {
    await writeFileDurably(join(this.#layers, record.id, 'layer.json'), JSON.stringify(record));
  }
}
