import { parseDaemonArguments } from './cli-arguments';
import { startDaemon, type RunningDaemon } from './compose/start-daemon';
import { ConfigError } from './config/config-error';
import { loadConfig } from './config/load-config';
import { firstPartySettingKeys } from './providers/first-party-setting-keys';

// The program `npm start` runs: the only place that reads argv, the environment and signals.
async function main(): Promise<void> {
  // --help lists the first-party providers' settings, read from their packages' schemas.
  const wantsHelp = process.argv.some((arg) => arg === '--help' || arg === '-h');
  const args = parseDaemonArguments(process.argv, wantsHelp ? await firstPartySettingKeys() : []);
  let daemon: RunningDaemon | undefined;
  let stopRequested = false;

  const stop = (signal: string) => {
    if (stopRequested) return;
    stopRequested = true;
    // Nothing is listening yet: starting up has no in-flight request to finish.
    if (!daemon) process.exit(0);
    process.stderr.write(`runtimed: ${signal}: finishing in-flight requests, then exiting\n`);
    daemon.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`runtimed: shutdown failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  let config;
  try {
    config = loadConfig({ env: process.env, flags: args.flags, ...(args.configPath ? { configPath: args.configPath } : {}) });
  } catch (error) {
    fail(error);
  }
  startDaemon(config).then((started) => {
    daemon = started;
    process.stdout.write(`${started.banner}\n`);
  }, fail);
}

function fail(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`runtimed: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`runtimed: could not start: ${(error as Error).message}\n`);
  process.exit(1);
}

main().catch(fail);
