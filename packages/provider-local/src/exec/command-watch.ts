/** What a watch of a running command adds to its answer. */
export interface WatchOutcome {
  /** Ends the answer's stderr: why the command was stopped, or what went wrong around it. */
  note: string;
  /** The watch stopped the command: its answer has no exit code (as a timeout's), whatever the shell returned. */
  stopped?: boolean;
}

/** Watches one command's process group from its start; told when the command returned. */
export interface CommandWatch {
  /** The outcome for the answer, once the command returned; `failed`: non-zero exit or a signal. */
  finish(failed: boolean): Promise<WatchOutcome | undefined>;
}

/** Several watches as one: their notes in order, stopped when any stopped the command. */
export function combineWatches(watches: readonly CommandWatch[]): CommandWatch {
  return {
    async finish(failed) {
      const outcomes = (await Promise.all(watches.map((watch) => watch.finish(failed)))).filter((outcome) => outcome !== undefined);
      if (outcomes.length === 0) return undefined;
      return { note: outcomes.map((outcome) => outcome.note).join(''), stopped: outcomes.some((outcome) => outcome.stopped) };
    },
  };
}
