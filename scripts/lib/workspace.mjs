// What the release scripts share: the workspace's packages as pnpm sees them, and the repository's
// web addresses, derived from the one place they are written (the root package.json's
// `repository`, and `baseBranch` in .changeset/config.json), so moving the repository is a
// one-line change that every check then enforces. Plain Node, no dependencies.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The `packages:` globs of pnpm-workspace.yaml (only `dir` and `dir/*` forms, which is all we use). */
function workspaceGlobs(root) {
  const globs = [];
  let inPackages = false;
  for (const line of readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8').split('\n')) {
    if (/^\S/.test(line)) inPackages = line.startsWith('packages:');
    const item = inPackages && /^\s+-\s+['"]?([^'"#\s]+)['"]?/.exec(line);
    if (item) globs.push(item[1]);
  }
  return globs;
}

/**
 * Every workspace package: `{ name, dir, relativeDir, manifest, isPublic }`, sorted by name.
 * `isPublic` is what npm would publish: not `"private": true`.
 */
export function workspacePackages(root = repositoryRoot) {
  const relativeDirs = workspaceGlobs(root).flatMap((glob) => {
    if (!glob.endsWith('/*')) return [glob];
    const parent = glob.slice(0, -2);
    if (!existsSync(join(root, parent))) return [];
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`);
  });
  return relativeDirs
    .filter((relativeDir) => existsSync(join(root, relativeDir, 'package.json')))
    .map((relativeDir) => {
      const manifest = readJson(join(root, relativeDir, 'package.json'));
      return { name: manifest.name, dir: join(root, relativeDir), relativeDir, manifest, isPublic: manifest.private !== true };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function publicPackages(root = repositoryRoot) {
  return workspacePackages(root).filter((pkg) => pkg.isPublic);
}

/**
 * The repository's addresses, from the root package.json's `repository.url`
 * (`git+https://github.com/<owner>/<name>.git`) and the changesets base branch.
 */
export function repositoryLinks(root = repositoryRoot) {
  const { repository } = readJson(join(root, 'package.json'));
  const gitUrl = typeof repository === 'string' ? repository : repository?.url;
  const match = /^git\+(https:\/\/github\.com\/[^/]+\/[^/]+?)\.git$/.exec(gitUrl ?? '');
  if (!match) throw new Error(`the root package.json's repository.url must read git+https://github.com/<owner>/<name>.git, not ${gitUrl}`);
  const webUrl = match[1];
  const changesetConfig = join(root, '.changeset', 'config.json');
  const branch = existsSync(changesetConfig) ? (readJson(changesetConfig).baseBranch ?? 'main') : 'main';
  return {
    gitUrl,
    webUrl,
    branch,
    issuesUrl: `${webUrl}/issues`,
    blobUrl: (path) => `${webUrl}/blob/${branch}/${path}`,
    treeUrl: (path) => `${webUrl}/tree/${branch}/${path}`,
  };
}
