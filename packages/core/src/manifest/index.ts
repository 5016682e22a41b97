export { byName, decodeTree, encodeTree, treeHash, type TreeChild, type TreeObject } from './tree-object';
export { buildTrees, type ManifestTrees } from './build-trees';
export { diffTrees, MissingTreeObjectError, type TreeChange, type TreeChangeKind, type TreeReader } from './diff-trees';
export { applyManifestDelta } from './apply-delta';
