import yoctoSpinner from 'yocto-spinner';

export interface ProgressSpinner {
  /** Stops and erases the spinner; safe to call more than once. */
  stop(): void;
}

const NO_SPINNER: ProgressSpinner = { stop() {} };

/**
 * A spinner with elapsed seconds ("checkpointing demo… 3s") for operations that wait on a
 * provider. Written to `stream` (stderr) and only when that stream is a TTY: a pipe or a file
 * never sees a control character, so `runtimectl checkpoint demo 2>log` stays clean.
 */
export function startSpinner(text: string, stream: NodeJS.WriteStream, enabled: boolean): ProgressSpinner {
  if (!enabled || !stream.isTTY) return NO_SPINNER;
  const startedAtMs = Date.now();
  const spinner = yoctoSpinner({ text, stream }).start();
  const ticker = setInterval(() => {
    spinner.text = `${text} ${Math.floor((Date.now() - startedAtMs) / 1000)}s`;
  }, 1000);
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(ticker);
      spinner.stop();
    },
  };
}

/** Runs `operation` under a spinner, stopping it however the operation ends. */
export async function withSpinner<T>(spinner: ProgressSpinner, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } finally {
    spinner.stop();
  }
}
