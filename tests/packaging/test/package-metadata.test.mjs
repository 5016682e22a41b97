import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPackageMetadata } from '../../../scripts/check-package-metadata.mjs';
import { repositoryRoot } from '../../../scripts/lib/workspace.mjs';
import { fixtureWorkspace, removeFixtures } from './fixture-workspace.mjs';

afterEach(removeFixtures);

const license = readFileSync(join(repositoryRoot, 'LICENSE'), 'utf8');

/** A manifest following every rule for a public package in `dir` of the fixture repository. */
function validManifest(name, dir, fields = {}) {
  return {
    name,
    version: '1.0.0',
    license: 'Apache-2.0',
    keywords: ['runtimectl', ...(name.includes('provider-') ? ['runtimectl-provider'] : [])],
    homepage: `https://github.com/acme/fixture/tree/main/${dir}#readme`,
    bugs: { url: 'https://github.com/acme/fixture/issues' },
    repository: { type: 'git', url: 'git+https://github.com/acme/fixture.git', directory: dir },
    exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' } },
    files: ['dist', 'README.md', 'LICENSE'],
    ...fields,
  };
}

/** A core and a provider taking it as a peer, both following every rule; `change` edits the provider's manifest. */
function providerFixture({ change = (manifest) => manifest, readme = '# provider-acme\n' } = {}) {
  const provider = validManifest('@acme/provider-acme', 'packages/provider-acme', {
    peerDependencies: { '@acme/core': 'workspace:^' },
    devDependencies: { '@acme/core': 'workspace:*', '@acme/ci-guard': 'workspace:*' },
  });
  return fixtureWorkspace({
    packages: {
      'packages/provider-acme': change(provider),
      'packages/core': validManifest('@acme/core', 'packages/core'),
      'packages/ci-guard': { name: '@acme/ci-guard', version: '0.0.0', private: true },
    },
    files: {
      LICENSE: license,
      'packages/core/LICENSE': license,
      'packages/core/README.md': '# core\n',
      'packages/provider-acme/LICENSE': license,
      'packages/provider-acme/README.md': readme,
      'docs/guide.md': '# Guide\n',
    },
  });
}

describe('package metadata', () => {
  it('every public package of this repository agrees with the rules and the root repository address', () => {
    expect(checkPackageMetadata(repositoryRoot)).toEqual([]);
  });

  it('a manifest following every rule passes, private devDependencies included', () => {
    expect(checkPackageMetadata(providerFixture())).toEqual([]);
  });

  it('a repository, homepage or bugs address other than the root one is refused', () => {
    const root = providerFixture({ change: (manifest) => ({ ...manifest, repository: { type: 'git', url: 'git+https://github.com/old/place.git', directory: 'packages/provider-acme' }, homepage: 'https://example.com', bugs: undefined }) });
    expect(checkPackageMetadata(root)).toEqual([
      '@acme/provider-acme: repository must be {"type":"git","url":"git+https://github.com/acme/fixture.git","directory":"packages/provider-acme"}',
      '@acme/provider-acme: homepage must be https://github.com/acme/fixture/tree/main/packages/provider-acme#readme',
      '@acme/provider-acme: bugs.url must be https://github.com/acme/fixture/issues',
    ]);
  });

  it('a provider without the runtimectl-provider keyword, LICENSE in files or a default export condition is refused', () => {
    const root = providerFixture({
      change: (manifest) => ({ ...manifest, keywords: ['runtimectl'], files: ['dist', 'README.md'], exports: { '.': { import: './dist/index.js', types: './dist/index.d.ts' } } }),
    });
    expect(checkPackageMetadata(root)).toEqual([
      '@acme/provider-acme: keywords must include "runtimectl-provider" (a provider)',
      '@acme/provider-acme: files must include LICENSE',
      '@acme/provider-acme: exports["."] must name "types" first',
      '@acme/provider-acme: exports["."] must end with a "default" condition',
    ]);
  });

  it('an exact workspace pin, a peer without its dev copy, or a runtime dependency on a private package is refused', () => {
    const root = providerFixture({
      change: (manifest) => ({ ...manifest, peerDependencies: { '@acme/core': 'workspace:*' }, devDependencies: {}, dependencies: { '@acme/ci-guard': 'workspace:^' } }),
    });
    expect(checkPackageMetadata(root)).toEqual([
      '@acme/provider-acme: dependencies names @acme/ci-guard, which is private (never published)',
      '@acme/provider-acme: peerDependencies["@acme/core"] must be "workspace:^", not "workspace:*"',
      '@acme/provider-acme: peer @acme/core also needs devDependencies["@acme/core"]: "workspace:*"',
    ]);
  });

  it('README links that leave the package, name files it does not ship or name nothing in the repository are refused', () => {
    const readme = [
      '[guide](../../docs/guide.md) [src](src/index.ts) [license](LICENSE) [anchor](#usage)',
      '[ok](https://github.com/acme/fixture/blob/main/docs/guide.md#top) [gone](https://github.com/acme/fixture/blob/main/docs/gone.md)',
      '[branch](https://github.com/acme/fixture/blob/dev/docs/guide.md) [elsewhere](https://github.com/other/repo/blob/main/x.md)',
    ].join('\n');
    expect(checkPackageMetadata(providerFixture({ readme }))).toEqual([
      '@acme/provider-acme: README links to ../../docs/guide.md, outside the package: use https://github.com/acme/fixture/blob/main/docs/guide.md',
      '@acme/provider-acme: README links to src/index.ts, which the package does not ship (files): use https://github.com/acme/fixture/blob/main/packages/provider-acme/src/index.ts',
      '@acme/provider-acme: README links to https://github.com/acme/fixture/blob/main/docs/gone.md, which names no file in the repository',
      '@acme/provider-acme: README links to https://github.com/acme/fixture/blob/dev/docs/guide.md, not on main',
    ]);
  });
});
