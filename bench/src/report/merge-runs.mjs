// One truth in both files: a partial run (`--only`) replaces its own sections of the results on
// disk and keeps every other section as it was, each section stamped with the run it comes from,
// so bench/results/latest.json and bench/RESULTS.md always hold the same figures (RESULTS.md is
// rendered from exactly what latest.json holds). A full run replaces everything.

/** What a section keeps of the run that measured it. */
export function runStamp(run) {
  return { command: run.command, mode: run.mode, commit: run.commit, startedAt: run.startedAt };
}

/**
 * The results to write: `current`'s sections (stamped with its run), then — when `previous` holds
 * sections `current` did not run — those, as they were, in the order of `sectionOrder`.
 */
export function mergeRuns(previous, current, sectionOrder) {
  const stamp = runStamp(current.run);
  const ran = new Map(current.sections.map((section) => [section.name, { ...section, run: stamp }]));
  const kept = new Map(
    (previous?.sections ?? [])
      .filter((section) => !ran.has(section.name))
      // Results written before sections were stamped came whole from the file's own run.
      .map((section) => [section.name, { ...section, run: section.run ?? runStamp(previous.run) }]),
  );
  const rank = (name) => (sectionOrder.includes(name) ? sectionOrder.indexOf(name) : sectionOrder.length);
  const sections = [...ran.values(), ...kept.values()].sort((a, b) => rank(a.name) - rank(b.name));
  return { run: current.run, machine: current.machine, sections };
}

/** The distinct runs the sections come from, newest first. */
export function runsOf(sections) {
  const runs = new Map();
  for (const section of sections) if (section.run) runs.set(section.run.startedAt, section.run);
  return [...runs.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}
