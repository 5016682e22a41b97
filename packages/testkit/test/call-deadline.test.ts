import { expect, it } from 'vitest';
import { runFixture } from './mutants/run-fixture';

it('a conformance case whose provider call never settles fails naming the call, not with a bare "Test timed out"', async () => {
  const tests = await runFixture('hung-checkpoint.mutants.ts');
  const failed = tests.filter((test) => test.status === 'failed');
  expect(failed.length, 'the snapshot cases that checkpoint fail').toBeGreaterThan(0);
  for (const test of failed) {
    const messages = test.failureMessages.join('\n');
    expect(messages, test.title).toMatch(/provider call checkpoint did not settle within \d+ ms \(the test times out after 4000 ms\)/);
    expect(messages, test.title).not.toContain('Test timed out');
  }
  expect(tests.filter((test) => test.status === 'passed').length, 'the lifecycle cases, which never checkpoint, still pass').toBeGreaterThan(0);
}, 300_000);
