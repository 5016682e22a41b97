import { describe } from 'vitest';
import { InvalidRequestError } from '@runtimectl/core';
import { errorPrivacyTests } from '../../src/index';
import { leakyProvider } from './leaky-provider';

// A provider whose typed errors (which core shows callers as they are) name the workspace root.
describe('typed errors naming the workspace', () => {
  errorPrivacyTests({
    name: 'typed errors naming the workspace',
    createProvider: () => leakyProvider((root, path) => new InvalidRequestError(`${root}/${path}: name too long`, { path })),
  });
});
