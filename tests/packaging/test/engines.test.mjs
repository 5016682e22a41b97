import { describe, expect, it } from 'vitest';
import { checkEngines, formatFinding } from '../../../scripts/check-engines.mjs';
import { repositoryRoot } from '../../../scripts/lib/workspace.mjs';

describe('engines of the production dependency trees', () => {
  it("every production dependency of every public package accepts the lowest Node that package declares", () => {
    expect(checkEngines(repositoryRoot).map(formatFinding)).toEqual([]);
  });
});
