export { OutputTail } from './output-tail';
export { ServerStartError, type ServerStartFailure } from './server-start-error';
export { launchProcess, describeEnd, type LaunchOptions, type LaunchedProcess, type ExitStatus, type ProcessEnd } from './launch-process';
export { startServerProcess, type StartServerOptions, type ServerProcess } from './start-server-process';
export { runProcessToEnd, type RunToEndOptions } from './run-process-to-end';
export { withinDeadline, type StepDeadline } from './within-deadline';
export { freePort } from './free-port';
export { removeTree } from './remove-tree';
