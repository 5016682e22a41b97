import { runCli } from './run-cli';

// The `runtimectl` bin: the only place that touches process globals. exitCode (not exit())
// lets stdout drain, so `runtimectl cat … | head` and large exec output are never cut.
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
