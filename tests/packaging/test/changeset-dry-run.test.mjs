import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changesetDryRun, formatPlan } from '../../../scripts/changeset-dry-run.mjs';
import { repositoryRoot } from '../../../scripts/lib/workspace.mjs';
import { commitAll, fixtureWorkspace, removeFixtures } from './fixture-workspace.mjs';

afterEach(removeFixtures);

const config = readFileSync(join(repositoryRoot, '.changeset', 'config.json'), 'utf8');

/** Core, the testkit (fixed with core, core as a peer), a provider (core as a peer) and an app (core as a dependency). */
function releaseFixture(version, changesets) {
  const manifest = (name, fields = {}) => ({ name, version, ...fields });
  const plugin = { peerDependencies: { '@runtimectl/core': 'workspace:^' }, devDependencies: { '@runtimectl/core': 'workspace:*' } };
  return fixtureWorkspace({
    git: true,
    packages: {
      'packages/core': manifest('@runtimectl/core'),
      'packages/testkit': manifest('@runtimectl/testkit', plugin),
      'packages/provider-acme': manifest('@runtimectl/provider-acme', plugin),
      'packages/cli': manifest('@runtimectl/cli', { dependencies: { '@runtimectl/core': 'workspace:^' } }),
    },
    files: {
      '.changeset/config.json': config,
      ...Object.fromEntries(changesets.map((releases, index) => [`.changeset/change-${index}.md`, `---\n${releases.map(([name, bump]) => `"${name}": ${bump}`).join('\n')}\n---\n\nA change.\n`])),
    },
  });
}

function versions(plan) {
  return Object.fromEntries(plan.releases.map((release) => [release.name, release.after]));
}

describe('changeset dry run', () => {
  it('a minor of core releases core and the testkit as 1.1.0 and leaves the providers and apps in range, unreleased', () => {
    const plan = changesetDryRun({ repo: releaseFixture('1.0.0', [[['@runtimectl/core', 'minor']]]) });
    expect(versions(plan)).toEqual({ '@runtimectl/cli': '1.0.0', '@runtimectl/core': '1.1.0', '@runtimectl/provider-acme': '1.0.0', '@runtimectl/testkit': '1.1.0' });
    expect(plan.unasked).toEqual([]);
  });

  it('a major of core that its peer dependents did not ask for fails, naming each of them', () => {
    const plan = changesetDryRun({ repo: releaseFixture('1.0.0', [[['@runtimectl/core', 'major']]]) });
    expect(plan.unasked.map((release) => `${release.name} ${release.before} → ${release.after}`)).toEqual([
      '@runtimectl/provider-acme 1.0.0 → 2.0.0',
      '@runtimectl/testkit 1.0.0 → 2.0.0',
    ]);
    expect(formatPlan(plan)).toContain('@runtimectl/provider-acme would go 1.0.0 → 2.0.0, but no changeset asks for a major for it');
  });

  it('majors every changeset asks for pass', () => {
    const majors = ['@runtimectl/core', '@runtimectl/testkit', '@runtimectl/provider-acme'].map((name) => [name, 'major']);
    const plan = changesetDryRun({ repo: releaseFixture('1.0.0', [majors]) });
    expect(plan.unasked).toEqual([]);
    expect(versions(plan)['@runtimectl/provider-acme']).toBe('2.0.0');
  });

  it('at 0.x a minor of core would cut its peer dependents 1.0.0: why the first public version is 1.0.0', () => {
    const plan = changesetDryRun({ repo: releaseFixture('0.1.0', [[['@runtimectl/core', 'minor']]]) });
    expect(plan.unasked.map((release) => `${release.name} → ${release.after}`)).toContain('@runtimectl/provider-acme → 1.0.0');
  });

  it('reads what is committed at HEAD, not the working tree', () => {
    const repo = releaseFixture('1.0.0', [[['@runtimectl/core', 'patch']]]);
    writeFileSync(join(repo, '.changeset', 'change-0.md'), '---\n"@runtimectl/core": minor\n---\n\nNot committed.\n');
    expect(versions(changesetDryRun({ repo }))['@runtimectl/core']).toBe('1.0.1');
    commitAll(repo, 'minor');
    expect(versions(changesetDryRun({ repo }))['@runtimectl/core']).toBe('1.1.0');
  });

  it("this repository's HEAD plans no major that no changeset asks for", () => {
    const plan = changesetDryRun();
    expect(plan.unasked.map((release) => release.name)).toEqual([]);
    expect(plan.releases.find((release) => release.name === '@runtimectl/core')?.before).toMatch(/^\d+\.\d+\.\d+/);
  });
});
