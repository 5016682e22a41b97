#!/usr/bin/env node
// Every public package's manifest says the same true things about where it comes from and how it
// is consumed (docs/releasing.md has the rules and why). The repository's address is written once,
// in the root package.json; everything here is derived from it, so a move is one edit and this
// check names every place that still disagrees. Plain Node, no dependencies.
import { existsSync, readFileSync } from 'node:fs';
import { join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publicPackages, repositoryLinks, repositoryRoot, workspacePackages } from './lib/workspace.mjs';

const RUNTIME_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies'];
/** A package whose name says it is a provider carries the discovery keyword (docs/add-a-provider.md). */
const PROVIDER_NAME = /(^|\/)(runtimectl-)?provider-[^/]+$/;
const PROVIDER_KEYWORD = 'runtimectl-provider';

function sameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function checkOrigin(pkg, links) {
  const problems = [];
  const { manifest, relativeDir } = pkg;
  const repository = { type: 'git', url: links.gitUrl, directory: relativeDir };
  if (!sameJson(manifest.repository, repository)) problems.push(`repository must be ${JSON.stringify(repository)}`);
  const homepage = `${links.treeUrl(relativeDir)}#readme`;
  if (manifest.homepage !== homepage) problems.push(`homepage must be ${homepage}`);
  if (manifest.bugs?.url !== links.issuesUrl) problems.push(`bugs.url must be ${links.issuesUrl}`);
  const keywords = manifest.keywords ?? [];
  if (!keywords.includes('runtimectl')) problems.push('keywords must include "runtimectl"');
  if (PROVIDER_NAME.test(manifest.name) && !keywords.includes(PROVIDER_KEYWORD)) problems.push(`keywords must include "${PROVIDER_KEYWORD}" (a provider)`);
  return problems;
}

function checkLicense(pkg, root) {
  const problems = [];
  if (pkg.manifest.license !== 'Apache-2.0') problems.push('license must be Apache-2.0');
  if (!(pkg.manifest.files ?? []).includes('LICENSE')) problems.push('files must include LICENSE');
  const copy = join(pkg.dir, 'LICENSE');
  if (!existsSync(copy)) problems.push('LICENSE is missing (copy the root LICENSE)');
  else if (readFileSync(copy, 'utf8') !== readFileSync(join(root, 'LICENSE'), 'utf8')) problems.push('LICENSE differs from the root LICENSE');
  return problems;
}

/** `types` first (TypeScript reads conditions in order), `default` last, so `import` and `require()` both resolve. */
function checkExports(pkg) {
  const problems = [];
  for (const [subpath, conditions] of Object.entries(pkg.manifest.exports ?? {})) {
    const keys = typeof conditions === 'object' && conditions !== null ? Object.keys(conditions) : [];
    if (keys[0] !== 'types') problems.push(`exports["${subpath}"] must name "types" first`);
    if (keys.at(-1) !== 'default') problems.push(`exports["${subpath}"] must end with a "default" condition`);
  }
  return problems;
}

/**
 * A workspace package is depended on by `workspace:^` (published as `^x.y.z`, never an exact pin
 * that installs a second copy on skew); one taken as a peer is also a `workspace:*` devDependency
 * (to build against); nothing a user installs names a private package.
 */
function checkWorkspaceRanges(pkg, packagesByName) {
  const problems = [];
  const { manifest } = pkg;
  for (const field of RUNTIME_FIELDS) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      const target = packagesByName.get(name);
      if (!target) continue;
      if (!target.isPublic) problems.push(`${field} names ${name}, which is private (never published)`);
      if (range !== 'workspace:^') problems.push(`${field}["${name}"] must be "workspace:^", not "${range}"`);
    }
  }
  for (const name of Object.keys(manifest.peerDependencies ?? {})) {
    if (!packagesByName.has(name)) continue;
    if (manifest.dependencies?.[name]) problems.push(`${name} is both a dependency and a peer dependency`);
    if (manifest.devDependencies?.[name] !== 'workspace:*') problems.push(`peer ${name} also needs devDependencies["${name}"]: "workspace:*"`);
  }
  return problems;
}

function markdownLinks(text) {
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]);
  const references = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1]);
  return [...inline, ...references];
}

/**
 * The README is read on the registry's page, where only the package's own files exist: a relative
 * link must stay inside the package and reach a file it ships; a link into this repository must be
 * absolute, on the base branch, and name a path that exists.
 */
function checkReadmeLinks(pkg, root, links) {
  const problems = [];
  const readme = join(pkg.dir, 'README.md');
  if (!existsSync(readme)) return ['README.md is missing'];
  const shipped = new Set(['README.md', 'package.json', ...(pkg.manifest.files ?? [])].map((entry) => entry.replace(/^\.\//, '').split('/')[0]));
  const repositoryPrefix = `${links.webUrl}/`;
  for (const link of markdownLinks(readFileSync(readme, 'utf8'))) {
    const target = link.split('#')[0];
    if (!target || /^[a-z][a-z0-9+.-]*:/i.test(link)) {
      if (!link.startsWith(repositoryPrefix)) continue;
      const path = /^(?:blob|tree)\/([^/]+)\/([^#?]+)/.exec(target.slice(repositoryPrefix.length));
      if (!path) continue;
      if (path[1] !== links.branch) problems.push(`README links to ${link}, not on ${links.branch}`);
      else if (!existsSync(join(root, decodeURIComponent(path[2])))) problems.push(`README links to ${link}, which names no file in the repository`);
      continue;
    }
    const inside = relative(pkg.dir, normalize(join(pkg.dir, decodeURIComponent(target))));
    const first = inside.split(sep)[0];
    if (inside.startsWith('..')) problems.push(`README links to ${link}, outside the package: use ${links.blobUrl(relative(root, join(pkg.dir, target)).split(sep).join('/'))}`);
    else if (!shipped.has(first)) problems.push(`README links to ${link}, which the package does not ship (files): use ${links.blobUrl(`${pkg.relativeDir}/${inside.split(sep).join('/')}`)}`);
  }
  return problems;
}

/** Every problem as `<package>: <problem>`; empty when every public package agrees. */
export function checkPackageMetadata(root = repositoryRoot) {
  const links = repositoryLinks(root);
  const packagesByName = new Map(workspacePackages(root).map((pkg) => [pkg.name, pkg]));
  return publicPackages(root).flatMap((pkg) =>
    [
      ...checkOrigin(pkg, links),
      ...checkLicense(pkg, root),
      ...checkExports(pkg),
      ...checkWorkspaceRanges(pkg, packagesByName),
      ...checkReadmeLinks(pkg, root, links),
    ].map((problem) => `${pkg.name}: ${problem}`),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? repositoryRoot;
  const problems = checkPackageMetadata(root);
  for (const problem of problems) console.error(`check-package-metadata: ${problem}`);
  const count = publicPackages(root).length;
  console.log(problems.length === 0 ? `check-package-metadata: ${count} public packages agree` : `check-package-metadata: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
