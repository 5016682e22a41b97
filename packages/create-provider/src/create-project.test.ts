import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CreateProviderError, createProject, providerIdFrom } from './create-project';

const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'create-provider-'));
  made.push(dir);
  return dir;
};

describe('createProject', () => {
  it('fills the id, the name and every dependency version, and leaves no placeholder behind', () => {
    const project = createProject({ directory: join(scratch(), 'acme'), name: '@acme/runtimectl-provider' });
    expect(project).toMatchObject({ id: 'acme', name: '@acme/runtimectl-provider' });
    expect(project.files).toEqual(expect.arrayContaining(['.gitignore', 'package.json', 'src/index.ts', 'test/conformance.test.ts', 'tsconfig.json']));
    for (const file of project.files) expect(readFileSync(join(project.directory, file), 'utf8'), file).not.toMatch(/\{\{\w+\}\}/);
    const manifest = JSON.parse(readFileSync(join(project.directory, 'package.json'), 'utf8'));
    expect(manifest.name).toBe('@acme/runtimectl-provider');
    expect(manifest.peerDependencies['@runtimectl/provider']).toMatch(/^\^\d+\.\d+\.\d+$/);
    expect(manifest.devDependencies['@runtimectl/provider']).toBe(manifest.peerDependencies['@runtimectl/provider']);
    expect(readFileSync(join(project.directory, 'src/index.ts'), 'utf8')).toContain("id: 'acme'");
  });

  it('refuses a directory that is not empty, writing nothing', () => {
    const directory = scratch();
    writeFileSync(join(directory, 'keep.txt'), 'mine');
    expect(() => createProject({ directory })).toThrow(CreateProviderError);
    expect(() => createProject({ directory })).toThrow(/exists and is not empty/);
    expect(readdirSync(directory)).toEqual(['keep.txt']);
  });

  it('writes into an empty directory that exists', () => {
    const directory = join(scratch(), 'empty');
    mkdirSync(directory);
    expect(createProject({ directory, id: 'empty_one' }).id).toBe('empty_one');
  });

  it('refuses an id or a name that is not one', () => {
    expect(() => createProject({ directory: join(scratch(), 'x'), id: 'Not-An-Id' })).toThrow(/is not a provider id/);
    expect(() => createProject({ directory: join(scratch(), 'x'), name: 'Bad Name' })).toThrow(/is not an npm package name/);
  });
});

describe('providerIdFrom', () => {
  it('makes a provider id of a directory name', () => {
    expect(providerIdFrom('My-Provider')).toBe('my_provider');
    expect(providerIdFrom('2fast.sandbox')).toBe('fast_sandbox');
    expect(providerIdFrom('a'.repeat(40))).toBe('a'.repeat(32));
    expect(providerIdFrom('123')).toBeUndefined();
  });
});
