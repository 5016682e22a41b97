#!/usr/bin/env node
// `pnpm changeset:dry-run`: what `changeset version` would do to the committed HEAD, without
// touching this checkout. It clones HEAD into a temporary directory, runs `changeset version`
// there with this workspace's @changesets/cli, prints every package's planned version, and fails
// naming each package that would jump a major (0.x → 1.x, n.x → n+1.x) when no changeset asks
// for a major for it: such a jump comes from the peer-dependency cascade or a fixed group, never
// from a decision (docs/releasing.md). Plain Node, no dependencies.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repositoryRoot, workspacePackages } from './lib/workspace.mjs';

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  return result.stdout.trim();
}

/** The packages each changeset asks a major for: `{ "<name>" → ["<changeset file>", …] }`. */
export function explicitMajors(changesetDir) {
  const majors = new Map();
  for (const file of readdirSync(changesetDir).filter((name) => name.endsWith('.md') && name !== 'README.md')) {
    const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(join(changesetDir, file), 'utf8'))?.[1] ?? '';
    for (const line of frontMatter.split(/\r?\n/)) {
      const release = /^\s*["']?([^"':]+)["']?\s*:\s*major\s*$/.exec(line);
      if (release) majors.set(release[1], [...(majors.get(release[1]) ?? []), file]);
    }
  }
  return majors;
}

function majorOf(version) {
  return Number(version.split('.')[0]);
}

/**
 * Clones `repo` at HEAD, runs `changeset version` in the clone with the @changesets/cli of
 * `toolsRoot` (its node_modules are linked into the clone), and returns the plan:
 * `{ commit, releases: [{ name, before, after, isPublic, major, asked }], unasked }`.
 */
export function changesetDryRun({ repo = repositoryRoot, toolsRoot = repositoryRoot, keep = false } = {}) {
  const commit = run('git', ['rev-parse', 'HEAD'], repo);
  const scratch = mkdtempSync(join(tmpdir(), 'changeset-dry-run-'));
  const clone = join(scratch, 'repo');
  try {
    run('git', ['clone', '--quiet', '--no-checkout', repo, clone], scratch);
    run('git', ['checkout', '--quiet', '--detach', commit], clone);
    symlinkSync(join(toolsRoot, 'node_modules'), join(clone, 'node_modules'), 'dir');
    // Versions only: without a changelog, `version` does not ask git for each changeset's commit
    // (one `git log` per changeset, most of the run's time).
    const configFile = join(clone, '.changeset', 'config.json');
    writeFileSync(configFile, JSON.stringify({ ...JSON.parse(readFileSync(configFile, 'utf8')), changelog: false }));
    const before = new Map(workspacePackages(clone).map((pkg) => [pkg.name, pkg]));
    const asked = explicitMajors(join(clone, '.changeset'));
    run(process.execPath, [join(toolsRoot, 'node_modules', '@changesets', 'cli', 'bin.js'), 'version'], clone);
    const releases = workspacePackages(clone).map(({ name, manifest, isPublic }) => {
      const previous = before.get(name)?.manifest.version ?? manifest.version;
      const major = majorOf(manifest.version) > majorOf(previous);
      return { name, before: previous, after: manifest.version, isPublic, major, asked: asked.get(name) ?? [] };
    });
    return { commit, releases, unasked: releases.filter((release) => release.major && release.asked.length === 0) };
  } finally {
    if (keep) console.log(`changeset-dry-run: kept ${clone}`);
    else rmSync(scratch, { recursive: true, force: true });
  }
}

export function formatPlan({ commit, releases, unasked }) {
  const width = Math.max(...releases.map((release) => release.name.length));
  const lines = [`changeset-dry-run: planned versions at ${commit.slice(0, 12)} (changeset version on a clone)`];
  for (const release of releases) {
    const change = release.before === release.after ? `${release.after} (unchanged)` : `${release.before} → ${release.after}`;
    const notes = [release.isPublic ? '' : 'private', release.major ? (release.asked.length > 0 ? 'major, asked' : 'MAJOR NOBODY ASKED FOR') : ''].filter(Boolean);
    lines.push(`  ${release.name.padEnd(width)}  ${change}${notes.length > 0 ? `  (${notes.join(', ')})` : ''}`);
  }
  for (const release of unasked) {
    lines.push(
      `changeset-dry-run: ${release.name} would go ${release.before} → ${release.after}, but no changeset asks for a major for it: ` +
        'a peer dependency leaving its range or a fixed group carried it there (docs/releasing.md). ' +
        `If it is meant, add "${release.name}": major to a changeset; if not, find the peer range or group that did it.`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const repoIndex = args.indexOf('--repo');
  const repo = repoIndex >= 0 ? args[repoIndex + 1] : repositoryRoot;
  const pending = spawnSync('git', ['status', '--porcelain', '--', '.changeset', '*package.json'], { cwd: repo, encoding: 'utf8' }).stdout.trim();
  if (pending) console.warn('changeset-dry-run: uncommitted changes to changesets or manifests are not in HEAD, so not in this plan');
  const plan = changesetDryRun({ repo, keep: args.includes('--keep') });
  console.log(formatPlan(plan));
  process.exitCode = plan.unasked.length === 0 ? 0 : 1;
}
