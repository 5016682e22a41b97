import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MUTANTS = fileURLToPath(new URL('.', import.meta.url));
const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

/** One test of a fixture run, as vitest's JSON reporter has it. */
export interface FixtureTest {
  /** The `describe` titles around it, outermost first. */
  ancestorTitles: string[];
  title: string;
  status: 'passed' | 'failed' | 'skipped' | 'pending' | 'todo';
  failureMessages: string[];
}

/**
 * Runs `file` (a `*.mutants.ts` under test/mutants) in a child vitest — a failing test there is
 * what the caller expects, so it must not fail this run — and answers its tests.
 */
export async function runFixture(file: string): Promise<FixtureTest[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'testkit-mutants-'));
  const report = join(scratch, 'report.json');
  try {
    const child = spawn(process.execPath, [VITEST, 'run', '--root', MUTANTS, file, '--reporter=json', `--outputFile=${report}`], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((done, fail) => {
      child.once('error', fail);
      child.once('exit', () => done());
    });
    const parsed = JSON.parse(await readFile(report, 'utf8').catch(() => {
      throw new Error(`the fixture run of ${file} wrote no report:\n${output}`);
    })) as { testResults: { assertionResults: FixtureTest[] }[] };
    return parsed.testResults.flatMap((result) => result.assertionResults);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The tests of `tests` under the `describe` whose title contains `name`, by title. */
export function testsOf(tests: FixtureTest[], name: string): Map<string, FixtureTest> {
  return new Map(tests.filter((test) => test.ancestorTitles.some((title) => title.includes(name))).map((test) => [test.title, test]));
}
