/** The process surface the CLI touches, passed in so the program never reaches for globals. */
export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
  /** Records the exit code the process ends with (exec passes its command's through). */
  setExitCode(code: number): void;
}
