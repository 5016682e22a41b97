import { describe, expect, it } from 'vitest';
import { errorPrivacyTests } from '../src/index';
import { leakyProvider } from './mutants/leaky-provider';
import { runFixture, testsOf } from './mutants/run-fixture';

const FILE_SYSTEM_CASE = 'file-system errors other than not-found';

// Core wraps an error that is not one of its own (provider-calls.ts): a raw ENAMETOOLONG naming a
// host path reaches callers as a generic provider_error, its text kept for the log. So the area
// passes such a provider, and fails one whose typed errors name the workspace.
describe('a provider letting its own ENAMETOOLONG text through (core wraps it)', () => {
  errorPrivacyTests({
    name: 'foreign errors naming the workspace',
    createProvider: () =>
      leakyProvider((root, path) => Object.assign(new Error(`ENAMETOOLONG: name too long, stat '${root}/${path}'`), { code: 'ENAMETOOLONG' })),
  });
});

it('the error-privacy area fails a provider whose typed errors name the workspace root', async () => {
  const tests = testsOf(await runFixture('error-privacy.mutants.ts'), 'typed errors naming the workspace');
  const [fileSystem] = [...tests.values()].filter((test) => test.title.startsWith(FILE_SYSTEM_CASE));
  expect(fileSystem?.status).toBe('failed');
  expect(fileSystem?.failureMessages.join('\n')).toContain('the error message');
}, 300_000);
