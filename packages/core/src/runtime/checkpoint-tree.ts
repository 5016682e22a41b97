import { InvalidRequestError, PathNotFoundError } from '@runtimectl/provider';
import { decodeTree, type TreeChild } from '../manifest/tree-object';
import { MissingTreeObjectError } from '../manifest/diff-trees';
import type { CheckpointTreeEntry, CheckpointTreeQuery, CheckpointTreeResult } from '../wire/checkpoint-tree';
import { checkpointRoot } from './diff-checkpoints';
import type { ServiceContext } from './service-context';

const DEFAULT_TREE_PAGE = 500;

/** `src/lib/`, `./src//lib` and `/src/lib` all name `src/lib`; `..` is refused (a manifest has no parent of its root). */
export function normaliseTreePath(path: string | undefined): string[] {
  const segments = (path ?? '').split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new InvalidRequestError(`path ${JSON.stringify(path)} may not contain '..'`, { path });
  return segments;
}

async function readTree(ctx: ServiceContext, hash: string): Promise<TreeChild[]> {
  const body = (await ctx.store.getTreeObjects([hash])).get(hash);
  if (!body) throw new MissingTreeObjectError(hash);
  return decodeTree(body);
}

/**
 * One directory of a checkpoint, as its content manifest records it: the trees are walked in the
 * store from the checkpoint's manifest root, one point read per path segment, so this costs the
 * depth of the path and never touches the provider or restores anything (the files' contents are
 * read-file's, with the checkpoint's snapshot). Pages in name order; the cursor is the last name.
 */
export async function listCheckpointTree(
  ctx: ServiceContext,
  checkpointId: string,
  query: CheckpointTreeQuery,
): Promise<CheckpointTreeResult> {
  const segments = normaliseTreePath(query.path);
  const path = segments.join('/');
  let children = await readTree(ctx, await checkpointRoot(ctx, checkpointId));
  for (const [index, segment] of segments.entries()) {
    const child = children.find((entry) => entry.name === segment);
    const walked = segments.slice(0, index + 1).join('/');
    if (!child) throw new PathNotFoundError(walked);
    if (child.kind !== 'directory') throw new InvalidRequestError(`${walked} is not a directory`, { path: walked });
    children = await readTree(ctx, child.hash!);
  }
  const after = query.cursor === undefined ? undefined : Buffer.from(query.cursor, 'base64url').toString('utf8');
  const remaining = after === undefined ? children : children.filter(({ name }) => name > after);
  const limit = query.limit ?? DEFAULT_TREE_PAGE;
  const page = remaining.slice(0, limit);
  const last = page.at(-1);
  return {
    checkpoint_id: checkpointId,
    path,
    entries: page.map(treeEntryOf),
    next_cursor: remaining.length > limit && last ? Buffer.from(last.name, 'utf8').toString('base64url') : null,
  };
}

function treeEntryOf({ name, kind, mode, size, target }: TreeChild): CheckpointTreeEntry {
  return { name, kind, mode, size, target };
}
