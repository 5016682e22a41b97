import { runCli } from './run-cli';

// The `runtimectl` bin: the only place that touches process globals.

// `runtimectl cat … | head`: the reader has gone, so there is nobody left to tell; end quietly
// like a well-behaved filter instead of printing a stack for EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => process.exit(error.code === 'EPIPE' ? 0 : 1));
}

// exitCode (not exit()) lets stdout drain, so large exec output or a file is never cut short.
runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`runtimectl: unexpected failure: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
