import { beforeAll, describe, expect, it } from 'vitest';
import { runFixture, testsOf, type FixtureTest } from './mutants/run-fixture';

/** Cases of the symlink area, by the start of their titles. */
const CASES = {
  readExport: 'read and export through a link',
  stat: 'stat of a link',
  write: 'write through a link',
  createDirAll: 'create_dir_all through a link',
  tempPath: 'temp_path whose temporary directory',
  execCwd: 'exec with a cwd through a link',
  search: 'glob and grep never list',
  checkout: 'a checkout of a snapshot holding links',
  pauseResume: 'pause and resume of a runtime holding links',
  release: 'release of a backend holding links',
} as const;
type Case = keyof typeof CASES;

// The symlink area proves its worth by failing providers that follow a planted link out of the
// workspace: each mutant of one small disk provider runs it in a child vitest (a failure there is
// the point), the same provider without a flaw is the control.
describe('the symlink conformance area against mutants', () => {
  let tests: FixtureTest[] = [];
  beforeAll(async () => {
    tests = await runFixture('symlink-area.mutants.ts');
  }, 300_000);

  /** The outcome of each case for the mutant `name`. */
  const outcomes = (name: string): Record<Case, FixtureTest | undefined> => {
    const ran = [...testsOf(tests, name).values()];
    return Object.fromEntries(Object.entries(CASES).map(([key, start]) => [key, ran.find((test) => test.title.startsWith(start))])) as Record<Case, FixtureTest | undefined>;
  };
  const expectOutcomes = (name: string, failing: Case[], reason?: string) => {
    const found = outcomes(name);
    for (const [key, test] of Object.entries(found) as [Case, FixtureTest | undefined][]) {
      expect(test, `${name}: case ${key} ran`).toBeDefined();
      const expected = failing.includes(key) ? 'failed' : 'passed';
      expect(test!.status, `${name}: ${test!.title} ${test!.failureMessages.join('\n')}`).toBe(expected);
      if (expected === 'failed' && reason) expect(test!.failureMessages.join('\n'), `${name}: why ${test!.title} failed`).toContain(reason);
    }
  };

  it('the symlink area passes the same disk provider when it resolves real paths under its jail (the control)', () => {
    expectOutcomes('control', []);
  });

  it('the symlink area fails a provider whose jail is purely lexical', () => {
    expectOutcomes('lexical jail', ['readExport', 'stat', 'write', 'createDirAll', 'tempPath', 'execCwd', 'search', 'checkout', 'pauseResume']);
  });

  it('the symlink area fails a provider that is safe for file operations but follows links at export', () => {
    expectOutcomes('follows links at export', ['readExport', 'checkout'], 'of a file outside the workspace');
  });

  it('the symlink area fails a provider whose snapshots copy what links point at instead of the links', () => {
    expectOutcomes('dereferences links in snapshots', ['checkout', 'pauseResume'], 'of a file outside the workspace');
  });
});
