import { Command, Option } from 'commander';
import { CONFIG_KEYS, envNameOf, type ConfigKey } from './config/config-keys';
import { DAEMON_VERSION } from './version';

export interface DaemonArguments {
  configPath: string | undefined;
  /** Flag values by config path. */
  flags: Record<string, unknown>;
}

function helpText(providerKeys: readonly ConfigKey[]): string {
  const keys = [...CONFIG_KEYS, ...providerKeys];
  return `
Configuration comes from a TOML file (--config, else $RUNTIMECTL_CONFIG, else none), then
RUNTIMECTL_* environment variables, then these flags; later sources win. Unknown keys and bad
values stop the daemon with a message naming the key. A full example is in docs/config.md.

Settings (TOML key → environment variable):
${keys.map((key) => `  ${key.path.padEnd(36)} ${envNameOf(key.path).padEnd(46)} ${key.description}`).join('\n')}

Examples:
  runtimed                                   # 127.0.0.1:7333, fs provider (local beside it), defaults
  runtimed --provider local                  # the local provider by default (no snapshots)
  runtimed --port 0 --provider memory        # a free port, the in-memory provider
  RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV=TOKEN TOKEN=$(openssl rand -hex 24) runtimed --host 0.0.0.0

A provider package's settings go in its [providers.<id>] section beside package = "<name>";
its README lists them, and RUNTIMECTL_PROVIDERS_<ID>_<KEY> variables override them.
`;
}

/** Parses argv; --help (listing `providerKeys` too: the first-party providers' settings) and --version print and exit. */
export function parseDaemonArguments(argv: string[], providerKeys: readonly ConfigKey[] = []): DaemonArguments {
  const program = new Command('runtimed')
    .description('The runtimectl daemon: checkpoint, check out, pause and resume agent runtimes over HTTP.')
    .version(DAEMON_VERSION)
    .option('-c, --config <file>', 'TOML configuration file')
    .option('--host <address>', 'address to listen on (http.host)')
    .addOption(new Option('--port <number>', 'port to listen on; 0 picks a free one (http.port)').argParser(parsePort))
    .addOption(new Option('--store <kind>', 'where state is kept (store.kind)').choices(['memory', 'sqlite', 'postgres']))
    .option('--store-path <file>', 'SQLite file (store.path)')
    .option('--provider <id>', 'default provider for open (runtimes.default_provider)')
    .option('--state-dir <dir>', 'state directory (state_dir)')
    .option('--allowed-host <name...>', 'without auth, a Host name served besides loopback ones; repeatable (http.allowed_hosts)')
    .addOption(
      new Option('--workspace-quota-bytes <bytes>', 'disk bytes one workspace of local or fs may use; 0 for none (providers.{local,fs}.workspace_quota_bytes)').argParser(
        wholeNumber('--workspace-quota-bytes', 'bytes'),
      ),
    )
    .addOption(
      new Option(
        '--workspace-quota-inodes <count>',
        'files, directories and links one workspace of local or fs may hold; 0 for none (providers.{local,fs}.workspace_quota_inodes)',
      ).argParser(wholeNumber('--workspace-quota-inodes', 'files')),
    )
    .addOption(new Option('--local-isolation <mode>', 'how commands of local and fs are isolated (providers.{local,fs}.isolation)').choices(['auto', 'namespace', 'none']))
    .addOption(
      new Option('--local-network <mode>', 'network for isolated commands of local and fs; on/off read as host/none (providers.{local,fs}.network)').choices([
        'egress',
        'none',
        'host',
        'on',
        'off',
      ]),
    )
    .option('--node-id <id>', 'this node\'s id in the fleet (fleet.node_id)')
    .option('--advertise-url <url>', 'URL other nodes forward this node\'s runtimes\' requests to (fleet.advertise_url)')
    .option('--allow-insecure-bind', 'listen on a non-loopback address without auth (http.allow_insecure_bind)')
    .addOption(new Option('--log-level <level>', 'log level (log.level)').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']))
    .addHelpText('after', helpText(providerKeys))
    .showHelpAfterError()
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));
  program.parse(argv);
  const options = program.opts<{
    config?: string;
    host?: string;
    port?: number;
    store?: string;
    storePath?: string;
    provider?: string;
    stateDir?: string;
    allowInsecureBind?: boolean;
    nodeId?: string;
    advertiseUrl?: string;
    allowedHost?: string[];
    workspaceQuotaBytes?: number;
    workspaceQuotaInodes?: number;
    localIsolation?: string;
    localNetwork?: 'egress' | 'none' | 'host' | 'on' | 'off';
    logLevel?: string;
  }>();
  return {
    configPath: options.config,
    flags: {
      'http.host': options.host,
      'http.port': options.port,
      'store.kind': options.store,
      'store.path': options.storePath,
      'runtimes.default_provider': options.provider,
      state_dir: options.stateDir,
      'http.allow_insecure_bind': options.allowInsecureBind,
      'http.allowed_hosts': options.allowedHost,
      ...onThisMachine('workspace_quota_bytes', options.workspaceQuotaBytes),
      ...onThisMachine('workspace_quota_inodes', options.workspaceQuotaInodes),
      ...onThisMachine('isolation', options.localIsolation),
      ...onThisMachine('network', options.localNetwork),
      'fleet.node_id': options.nodeId,
      'fleet.advertise_url': options.advertiseUrl,
      'log.level': options.logLevel,
    },
  };
}

/** A flag about commands on this machine sets both providers that run them: local, and fs which composes it. */
function onThisMachine(key: string, value: unknown): Record<string, unknown> {
  return { [`providers.local.${key}`]: value, [`providers.fs.${key}`]: value };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new Error(`--port: expected 0-65535, got "${value}"`);
  return port;
}

/** The parser of a flag taking a whole number of `unit`. */
function wholeNumber(flag: string, unit: string): (value: string) => number {
  return (value) => {
    const count = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(count)) throw new Error(`${flag}: expected a whole number of ${unit}, got "${value}"`);
    return count;
  };
}
