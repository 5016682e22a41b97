import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRequire } from '../../../scripts/check-require.mjs';
import { publicPackages, repositoryRoot } from '../../../scripts/lib/workspace.mjs';
import { fixtureWorkspace, removeFixtures } from './fixture-workspace.mjs';

afterEach(removeFixtures);

describe('require() of every public entry point', () => {
  it('every public package is a devDependency of this package, so turbo builds it before these tests', () => {
    const own = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
    const missing = publicPackages().filter((pkg) => own.devDependencies[pkg.name] !== 'workspace:*');
    expect(missing.map((pkg) => pkg.name)).toEqual([]);
  });

  it('every entry point of every public package of this repository loads from CommonJS', () => {
    const results = checkRequire(repositoryRoot);
    expect(results.filter((result) => result.failures.length > 0)).toEqual([]);
    expect(results.find((result) => result.name === '@runtimectl/testkit')?.specifiers).toContain('@runtimectl/testkit/memory-provider');
  });

  it('an export map without a default condition, or a module with a top-level await, fails and names the entry', () => {
    const esm = (exportsField) => ({ name: '', version: '1.0.0', type: 'module', exports: exportsField });
    const root = fixtureWorkspace({
      packages: {
        'packages/import-only': { ...esm({ '.': { import: './index.js' } }), name: 'import-only' },
        'packages/awaits': { ...esm({ '.': { import: './index.js', default: './index.js' } }), name: 'awaits' },
        'packages/fine': { ...esm({ '.': { import: './index.js', default: './index.js' } }), name: 'fine' },
      },
      files: {
        'packages/import-only/index.js': 'export const value = 1;\n',
        'packages/awaits/index.js': 'export const value = await Promise.resolve(1);\n',
        'packages/fine/index.js': 'export const value = 1;\n',
      },
    });
    const failures = Object.fromEntries(checkRequire(root).map((result) => [result.name, result.failures.join(' ')]));
    expect(failures['import-only']).toMatch(/^import-only: ERR_PACKAGE_PATH_NOT_EXPORTED/);
    expect(failures.awaits).toMatch(/^awaits: ERR_REQUIRE_ASYNC_MODULE/);
    expect(failures.fine).toBe('');
  });
});
