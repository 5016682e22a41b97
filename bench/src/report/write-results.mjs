// Writes bench/results/latest.json and bench/RESULTS.md, each through a temporary file and a
// rename, so an interrupted run never leaves half a report.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LATEST_JSON = join(benchDir, 'results', 'latest.json');
export const RESULTS_MD = join(benchDir, 'RESULTS.md');

function writeAtomically(path, text) {
  mkdirSync(join(benchDir, 'results'), { recursive: true });
  // bench/results/*.tmp is ignored by git.
  const temporary = join(benchDir, 'results', `${basename(path)}.tmp`);
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

export function writeResults({ run, machine, sections, markdown }) {
  const json = {
    run,
    machine,
    rows: sections.flatMap((section) => section.rows.map((row) => ({ section: section.name, ...row }))),
    sections: Object.fromEntries(
      sections.map(({ name, title, run: sectionRun, seconds, loadAverageAfter, otherWorkCpuShare, details, failed, raw }) => [
        name,
        { title, ...(sectionRun ? { run: sectionRun } : {}), seconds, loadAverageAfter, otherWorkCpuShare, details, failed: failed ?? false, raw },
      ]),
    ),
  };
  writeAtomically(LATEST_JSON, `${JSON.stringify(json, null, 2)}\n`);
  writeAtomically(RESULTS_MD, markdown);
}

/** The run, machine and sections of latest.json, shaped as run.mjs hands them to the renderer; undefined when there is none yet. */
export function readResults() {
  if (!existsSync(LATEST_JSON)) return undefined;
  const json = JSON.parse(readFileSync(LATEST_JSON, 'utf8'));
  const sections = Object.entries(json.sections).map(([name, section]) => ({
    name,
    ...section,
    rows: json.rows.filter((row) => row.section === name),
  }));
  return { run: json.run, machine: json.machine, sections };
}

/** Rewrites RESULTS.md only (e.g. after known-causes.mjs changed), from latest.json. */
export function writeMarkdown(markdown) {
  writeAtomically(RESULTS_MD, markdown);
}
