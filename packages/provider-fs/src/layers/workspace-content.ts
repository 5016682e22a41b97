import { dirname } from 'node:path';

/**
 * Whether `name` in `parent`, somewhere in the snapshot store at `store`, holds a workspace's own
 * files rather than the store's bookkeeping: a layer's tree (`layers/<id>/root`, and
 * `root.copying` while it is copied), a live workspace's writable layer and overlay work
 * directory (`live/<workspace>/upper`, `work`), and the mount points of read-only views
 * (`views/<view>`). Their modes and owners are the runtime's and part of its checkpoints, so
 * whoever tightens the store's permissions leaves them as they are: the owner-only directories
 * above them keep other users out.
 */
export function isWorkspaceContentInStore(store: string, name: string, parent: string): boolean {
  if (parent === `${store}/views`) return true;
  const within = dirname(parent);
  if (within === `${store}/layers`) return name === 'root' || name === 'root.copying';
  if (within === `${store}/live`) return name === 'upper' || name === 'work';
  return false;
}
