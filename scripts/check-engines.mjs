#!/usr/bin/env node
// The `engines.node` a public package declares holds for what a user installing it gets: every
// package in its production dependency tree (as locked here; `pnpm list --prod`, so no
// devDependencies) must accept the lowest Node the package accepts. A dependency that wants a
// newer Node is reported with the path that pulls it in; docs/releasing.md says how to fix one
// (a direct dependency's version that keeps the tree on our Node, else our engines raised).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publicPackages, repositoryRoot } from './lib/workspace.mjs';

// semver is in the store already (pnpm, changesets and npm all use it); resolved through pnpm's
// hoisted store links rather than made a dependency of the root.
function loadSemver(root) {
  const require = createRequire(join(root, 'node_modules', '.pnpm', 'node_modules', 'noop.js'));
  return require('semver');
}

function productionTrees(root, pnpm) {
  const filters = publicPackages(root).flatMap((pkg) => ['--filter', pkg.name]);
  const result = spawnSync(pnpm, ['list', '--prod', '--depth', 'Infinity', '--json', ...filters], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`pnpm list failed (exit ${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/**
 * `[{ package, floor, dependency, version, engines, path }]`: each dependency (once per public
 * package) whose engines.node refuses the lowest Node the public package declares.
 */
export function checkEngines(root = repositoryRoot, { pnpm = 'pnpm' } = {}) {
  const semver = loadSemver(root);
  const findings = [];
  for (const tree of productionTrees(root, pnpm)) {
    const manifest = JSON.parse(readFileSync(join(tree.path, 'package.json'), 'utf8'));
    const floor = semver.minVersion(manifest.engines?.node ?? '*').version;
    const seen = new Set();
    const walk = (parent, dependencies, path) => {
      for (const [name, dependency] of Object.entries(dependencies ?? {})) {
        const key = `${name}@${dependency.version}`;
        if (seen.has(key)) continue;
        seen.add(key);
        // An optional dependency whose engines refuse a Node is skipped by the installer there
        // (e2b's undici8 on Node < 22.19): not a claim the tree makes on that Node.
        const optional = Object.hasOwn(parent.optionalDependencies ?? {}, name);
        if (optional && !existsSync(join(dependency.path, 'package.json'))) continue;
        const installed = JSON.parse(readFileSync(join(dependency.path, 'package.json'), 'utf8'));
        const engines = installed.engines?.node;
        if (engines && !semver.satisfies(floor, engines)) {
          if (optional) continue;
          findings.push({ package: tree.name, floor, dependency: name, version: installed.version, engines, path: [...path, name] });
        }
        walk(installed, dependency.dependencies, [...path, name]);
      }
    };
    walk(manifest, tree.dependencies, [tree.name]);
  }
  return findings;
}

export function formatFinding(finding) {
  return `${finding.package} (Node >= ${finding.floor}): ${finding.dependency}@${finding.version} wants node ${finding.engines}, via ${finding.path.join(' > ')}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const findings = checkEngines(process.argv[2] ?? repositoryRoot);
  for (const finding of findings) console.error(`check-engines: ${formatFinding(finding)}`);
  console.log(findings.length === 0 ? 'check-engines: every production dependency accepts the Node its public package declares' : `check-engines: ${findings.length} finding${findings.length === 1 ? '' : 's'}`);
  process.exitCode = findings.length === 0 ? 0 : 1;
}
