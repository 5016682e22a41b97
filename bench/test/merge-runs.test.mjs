import { describe, expect, it } from 'vitest';
import { mergeRuns } from '../src/report/merge-runs.mjs';
import { renderReport } from '../src/report/render-markdown.mjs';

const ORDER = ['http-clean', 'e2b', 'fs'];
const machine = { cores: 2, cpu: 'test', memoryGiB: 1, node: 'v20', os: 'linux', pinning: 'none', loadAverageAtStart: 1, loadAverageAtEnd: 1 };

function run(command, startedAt, commit) {
  return { command, mode: 'full', commit, startedAt, seconds: 10 };
}

function section(name, median) {
  const row = { id: `${name}.row`, measurement: `${name} figure`, value: { median, min: median, max: median, rounds: 1 }, unit: 'ms', verdict: 'reported' };
  return { name, title: `${name} section`, seconds: 1, loadAverageAfter: 1, details: [`${name} details`], rows: [row] };
}

describe('bench results: one truth in latest.json and RESULTS.md', () => {
  it('a partial run replaces its own sections, keeps the others as they were, and stamps each with its run', () => {
    const full = { run: run('npm run bench', '2026-12-01T00:00:00.000Z', 'aaa'), machine, sections: ORDER.map((name) => section(name, 1)) };
    const written = mergeRuns(undefined, full, ORDER);
    const partial = { run: run('npm run bench (only e2b)', '2026-12-02T00:00:00.000Z', 'bbb'), machine, sections: [section('e2b', 2)] };
    const merged = mergeRuns(written, partial, ORDER);
    expect(merged.sections.map((s) => [s.name, s.rows[0].value.median, s.run.commit])).toEqual([
      ['http-clean', 1, 'aaa'],
      ['e2b', 2, 'bbb'],
      ['fs', 1, 'aaa'],
    ]);
  });

  it('sections of results written before they were stamped take the run of their file', () => {
    const older = { run: run('npm run bench', '2026-11-01T00:00:00.000Z', 'old'), machine, sections: [section('fs', 1)] };
    const merged = mergeRuns(older, { run: run('npm run bench (only e2b)', '2026-12-02T00:00:00.000Z', 'new'), machine, sections: [section('e2b', 2)] }, ORDER);
    expect(merged.sections.map((s) => s.run.commit)).toEqual(['new', 'old']);
  });

  it('the report says when its sections come from more than one run, and names each section\'s run', () => {
    const first = mergeRuns(undefined, { run: run('npm run bench', '2026-12-01T00:00:00.000Z', 'aaa'), machine, sections: ORDER.map((name) => section(name, 1)) }, ORDER);
    expect(renderReport(first)).not.toContain('Sections come from');
    const merged = mergeRuns(first, { run: run('npm run bench (only e2b)', '2026-12-02T00:00:00.000Z', 'bbb'), machine, sections: [section('e2b', 2)] }, ORDER);
    const markdown = renderReport(merged);
    expect(markdown).toContain('Sections come from 2 runs');
    expect(markdown).toContain('From `npm run bench (only e2b)` (full run) at commit bbb');
    expect(markdown).toContain('From `npm run bench` (full run) at commit aaa');
  });
});
