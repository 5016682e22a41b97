// Small pnpm workspaces in a temporary directory, for proving the release scripts refuse what they
// should: a root package.json (with the repository address), pnpm-workspace.yaml, the packages
// given, and any other files; optionally a git repository with everything committed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const made = [];

/** `packages`: `{ "<dir>": manifest }`; `files`: `{ "<path>": text }`. Returns the root. */
export function fixtureWorkspace({ packages, files = {}, git = false }) {
  const root = mkdtempSync(join(tmpdir(), 'packaging-fixture-'));
  made.push(root);
  const write = (path, text) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('package.json', `${JSON.stringify({ name: 'fixture', private: true, repository: { type: 'git', url: 'git+https://github.com/acme/fixture.git' } }, null, 2)}\n`);
  write('pnpm-workspace.yaml', 'packages:\n  - packages/*\n');
  for (const [dir, manifest] of Object.entries(packages)) write(`${dir}/package.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [path, text] of Object.entries(files)) write(path, text);
  if (git) commitAll(root, 'fixture');
  return root;
}

export function commitAll(root, message) {
  for (const args of [['init', '--quiet', '--initial-branch=main'], ['add', '-A'], ['commit', '--quiet', '--allow-empty', '-m', message]]) {
    if (args[0] === 'init' && spawnSync('git', ['rev-parse', '--git-dir'], { cwd: root }).status === 0) continue;
    const result = spawnSync('git', ['-c', 'user.name=fixture', '-c', 'user.email=fixture@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: root, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  }
}

export function removeFixtures() {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
}
