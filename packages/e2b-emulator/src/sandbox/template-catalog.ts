/**
 * What a `templateID` names: a built-in template (`base` and the configured ones, optionally
 * seeded from a host directory) or a snapshot. Tags follow E2B: `<ref>:<tag>`, where only
 * `default` exists here.
 */
import { ApiError } from '../http/api-error.js';
import { DEFAULT_TAG, type SnapshotRecord, type SnapshotStore } from './snapshot-store.js';

/** A template the emulator starts sandboxes from without any snapshot. */
export interface BuiltinTemplate {
  name: string;
  /** Host directory copied as the sandbox filesystem; empty sandbox when absent. */
  directory?: string;
}

export type ResolvedTemplate =
  | { kind: 'builtin'; template: BuiltinTemplate }
  | { kind: 'snapshot'; snapshot: SnapshotRecord };

export class TemplateCatalog {
  private readonly builtins = new Map<string, BuiltinTemplate>();

  constructor(
    builtins: BuiltinTemplate[],
    private readonly snapshots: SnapshotStore,
  ) {
    this.builtins.set('base', { name: 'base' });
    for (const template of builtins) this.builtins.set(template.name, template);
  }

  /**
   * Resolves a `templateID` as sent by the SDK. Throws ApiError(404) with E2B's messages for
   * an unknown template or tag.
   */
  resolve(templateId: string): ResolvedTemplate {
    const { reference, tag } = splitTag(templateId);
    const builtin = this.builtins.get(reference);
    const snapshot = builtin ? undefined : this.snapshots.find(reference);
    if (!builtin && !snapshot) throw new ApiError(404, `template '${reference}' not found`);
    if (tag !== undefined && tag !== DEFAULT_TAG) {
      throw new ApiError(404, `tag '${tag}' does not exist for template '${reference}'`);
    }
    return builtin ? { kind: 'builtin', template: builtin } : { kind: 'snapshot', snapshot: snapshot as SnapshotRecord };
  }

  builtinNames(): string[] {
    return [...this.builtins.keys()];
  }
}

/** Splits `team/name:tag` into reference and tag; a `:` before the last `/` is not a tag. */
export function splitTag(templateId: string): { reference: string; tag: string | undefined } {
  const colon = templateId.lastIndexOf(':');
  if (colon <= templateId.lastIndexOf('/')) return { reference: templateId, tag: undefined };
  return { reference: templateId.slice(0, colon), tag: templateId.slice(colon + 1) };
}
