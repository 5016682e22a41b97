#!/usr/bin/env node
// `pnpm pack:check`: packs every public package as it would be published (`pnpm pack`, which
// applies .pnpmfile.cjs's beforePacking and turns workspace: ranges into versions) into a
// temporary directory and checks each tarball:
// - the published package.json names no private workspace package and no leftover workspace:
//   range, and the tarball carries LICENSE;
// - publint --strict (the manifest, exports and files agree with what is in the tarball);
// - @arethetypeswrong/cli with the esm-only profile: the packages are ESM only; attw's
//   node16-from-CJS resolution models TypeScript before require(esm) and would flag every entry
//   ("ESM, dynamic import only"), and node10 predates exports. What a CommonJS caller gets at run
//   time on Node 20.19+ is proved by scripts/check-require.mjs instead.
// One line per package, then the time taken. Needs the packages built (`pnpm build`).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publicPackages, repositoryRoot, workspacePackages } from './lib/workspace.mjs';

const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];

function runAsync(command, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => resolve({ status, output }));
  });
}

function packedManifestProblems(tarball, privateNames) {
  const problems = [];
  const listing = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.split('\n');
  if (!listing.includes('package/LICENSE')) problems.push('the tarball has no LICENSE');
  const manifest = JSON.parse(spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout);
  for (const field of DEPENDENCY_FIELDS) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (privateNames.has(name)) problems.push(`the published ${field} name ${name}, which is private`);
      if (String(range).startsWith('workspace:')) problems.push(`the published ${field}["${name}"] is still "${range}"`);
    }
  }
  return problems;
}

async function checkPackage(pkg, destination, privateNames, bin) {
  const started = performance.now();
  const packed = await runAsync('pnpm', ['pack', '--pack-destination', destination], pkg.dir);
  const tarballName = readdirSync(destination).find((name) => name.startsWith(`${pkg.name.replace('@', '').replace('/', '-')}-${pkg.manifest.version}`));
  if (packed.status !== 0 || !tarballName) return { pkg, problems: [`pnpm pack failed: ${packed.output.trim()}`], seconds: 0 };
  const tarball = join(destination, tarballName);
  const problems = packedManifestProblems(tarball, privateNames);
  const publint = await runAsync(join(bin, 'publint'), ['run', '--strict', tarball], destination);
  if (publint.status !== 0) problems.push(`publint --strict:\n${publint.output.trim()}`);
  const attw = await runAsync(join(bin, 'attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color', '--no-emoji'], destination);
  if (attw.status !== 0) problems.push(`attw --profile esm-only:\n${attw.output.trim()}`);
  return { pkg, problems, seconds: (performance.now() - started) / 1000 };
}

/** Packs and checks every public package, `jobs` at a time; resolves to `[{ pkg, problems, seconds }]`. */
export async function packCheck({ root = repositoryRoot, jobs = Math.max(1, Math.min(4, availableParallelism())), onResult = () => {} } = {}) {
  const destination = mkdtempSync(join(tmpdir(), 'pack-check-'));
  const privateNames = new Set(workspacePackages(root).filter((pkg) => !pkg.isPublic).map((pkg) => pkg.name));
  const bin = join(root, 'node_modules', '.bin');
  const queue = publicPackages(root);
  const results = [];
  try {
    await Promise.all(
      Array.from({ length: jobs }, async () => {
        for (let pkg = queue.shift(); pkg; pkg = queue.shift()) {
          const result = await checkPackage(pkg, destination, privateNames, bin);
          results.push(result);
          onResult(result);
        }
      }),
    );
  } finally {
    rmSync(destination, { recursive: true, force: true });
  }
  return results.sort((a, b) => a.pkg.name.localeCompare(b.pkg.name));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const results = await packCheck({
    onResult: ({ pkg, problems, seconds }) => {
      console.log(`pack-check: ${problems.length === 0 ? 'ok  ' : 'FAIL'} ${pkg.name}@${pkg.manifest.version} (publint --strict, attw esm-only, manifest; ${seconds.toFixed(1)} s)`);
      for (const problem of problems) console.log(problem.replace(/^/gm, 'pack-check:      '));
    },
  });
  const failed = results.filter((result) => result.problems.length > 0).length;
  console.log(`pack-check: ${results.length - failed} of ${results.length} packages pass, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = failed === 0 ? 0 : 1;
}
