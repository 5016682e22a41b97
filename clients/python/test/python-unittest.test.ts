import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// The Python client's own unittest suite (tests/, against a real runtimed), run once when this
// file is collected; each Python test becomes a test here, so CI counts and names them. Without
// python3 the suite skips, saying so.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });

interface Outcome {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  detail: string;
}

function runSuite(): { outcomes: Outcome[]; log: string } {
  const scratch = mkdtempSync(join(tmpdir(), 'runtimectl-python-results-'));
  try {
    const out = join(scratch, 'results.json');
    const run = spawnSync('python3', ['tests/run.py', out], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: join(root, 'src'), PYTHONDONTWRITEBYTECODE: '1' },
      timeout: 600_000,
    });
    const log = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    try {
      return { outcomes: JSON.parse(readFileSync(out, 'utf8')) as Outcome[], log };
    } catch {
      return { outcomes: [{ name: 'the Python suite ran', status: 'failed', detail: log || String(run.error) }], log };
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (python.status !== 0) {
  test.skip('python3 is not installed here: the Python client is not tested', () => {});
} else {
  const { outcomes } = runSuite();
  test('the Python suite found its tests', () => {
    expect(outcomes.length).toBeGreaterThan(0);
  });
  for (const outcome of outcomes) {
    test(`python: ${outcome.name}`, (context) => {
      context.skip(outcome.status === 'skipped', outcome.detail);
      expect(outcome.status, outcome.detail).toBe('passed');
    });
  }
}
