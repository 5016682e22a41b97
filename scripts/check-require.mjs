#!/usr/bin/env node
// Every entry point of every public package loads with require() from CommonJS, as a user's
// CommonJS code would on Node 20.19+ (require(esm)): the packages are ESM only, and the `default`
// condition of their export maps is what a require() resolves. Each package is required by name
// from its own directory (Node resolves a package's own name through its `exports`), in a fresh
// CommonJS process per package, so a missing condition, a top-level await (which require(esm)
// refuses) or a missing build fails here and names the entry. Needs the packages built.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { publicPackages, repositoryRoot } from './lib/workspace.mjs';

/** `[specifier, …]` of a package: its name, and its name + subpath for every other export. */
export function entrySpecifiers(pkg) {
  return Object.keys(pkg.manifest.exports ?? { '.': null }).map((subpath) => (subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`));
}

const REQUIRE_EACH = `
const failures = [];
for (const specifier of JSON.parse(process.argv[1])) {
  try {
    const loaded = require(specifier);
    if (Object.keys(loaded).length === 0) failures.push(specifier + ': required, but exports nothing');
  } catch (error) {
    failures.push(specifier + ': ' + (error.code ?? error.name) + ' ' + String(error.message).split('\\n')[0]);
  }
}
process.stdout.write(JSON.stringify(failures));
`;

/** `[{ name, specifiers, failures }]`: one CommonJS process per public package. */
export function checkRequire(root = repositoryRoot) {
  return publicPackages(root).map((pkg) => {
    const specifiers = entrySpecifiers(pkg);
    const result = spawnSync(process.execPath, ['--input-type=commonjs', '--no-warnings', '-e', REQUIRE_EACH, JSON.stringify(specifiers)], {
      cwd: pkg.dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    let failures;
    try {
      failures = JSON.parse(result.stdout);
    } catch {
      failures = [`the CommonJS process ended (status ${result.status}, signal ${result.signal}): ${result.stderr.trim().split('\n').slice(-3).join(' ')}`];
    }
    return { name: pkg.name, specifiers, failures };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = checkRequire(process.argv[2] ?? repositoryRoot);
  for (const { name, specifiers, failures } of results) {
    console.log(`check-require: ${failures.length === 0 ? 'ok  ' : 'FAIL'} ${name} (${specifiers.length} entr${specifiers.length === 1 ? 'y' : 'ies'})`);
    for (const failure of failures) console.log(`check-require:        ${failure}`);
  }
  process.exitCode = results.some((result) => result.failures.length > 0) ? 1 : 0;
}
