/**
 * `e2b-emulator --port N [--host H] [--root DIR] [--latency op=ms ...] [--max-sandboxes N]`
 * Prints one JSON line `{"apiUrl", "sandboxUrl", "port", "root", "isolation"}` once it
 * listens, then serves until SIGINT/SIGTERM, when it kills every sandbox and exits.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { EMULATOR_OPERATIONS, isEmulatorOperation, type EmulatorOperation } from './knobs/operations.js';
import { startE2BEmulator } from './start-e2b-emulator.js';
import type { BuiltinTemplate } from './sandbox/template-catalog.js';

function parseInteger(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a non-negative integer');
  return Number(value);
}

function collectLatency(value: string, previous: Partial<Record<EmulatorOperation, number>>) {
  const match = /^([a-z_]+)=(\d+(?:\.\d+)?)$/.exec(value);
  if (!match || !isEmulatorOperation(match[1] as string)) {
    throw new InvalidArgumentError(`expected op=ms with op one of ${EMULATOR_OPERATIONS.join(', ')}`);
  }
  return { ...previous, [match[1] as EmulatorOperation]: Number(match[2]) };
}

function collectTemplate(value: string, previous: BuiltinTemplate[]): BuiltinTemplate[] {
  const [name, directory] = value.split('=', 2) as [string, string | undefined];
  if (!name) throw new InvalidArgumentError('expected name or name=directory');
  return [...previous, directory ? { name, directory } : { name }];
}

const program = new Command()
  .name('e2b-emulator')
  .description('A local stand-in for the E2B control plane and envd, for the real e2b SDK.')
  .requiredOption('--port <port>', 'TCP port (0 picks a free one)', parseInteger)
  .option('--host <host>', 'interface to listen on', '127.0.0.1')
  .option('--root <dir>', 'directory for sandbox and snapshot files (default: a temp dir)')
  .option('--latency <op=ms>', `per-operation latency, repeatable (${EMULATOR_OPERATIONS.join(', ')})`, collectLatency, {})
  .option('--max-sandboxes <n>', 'concurrent running sandboxes before create answers 429', parseInteger)
  .option('--template <name[=dir]>', 'an extra template, optionally seeded from a directory; repeatable', collectTemplate, [])
  .option('--team-slug <slug>', 'team namespace of named snapshots', 'emulator-team')
  .addOption(
    new Option('--isolation <mode>', 'how commands see sandbox files').choices(['auto', 'mount-namespace', 'directory']).default('auto'),
  )
  .addOption(
    new Option('--network <mode>', "sandboxes' network with namespaces: egress (the internet, not the host's loopback), none or host")
      .choices(['egress', 'none', 'host'])
      .default('egress'),
  );

program.parse();
const flags = program.opts<{
  port: number;
  host: string;
  root?: string;
  latency: Partial<Record<EmulatorOperation, number>>;
  maxSandboxes?: number;
  template: BuiltinTemplate[];
  teamSlug: string;
  isolation: 'auto' | 'mount-namespace' | 'directory';
  network: 'egress' | 'none' | 'host';
}>();

const emulator = await startE2BEmulator({
  port: flags.port,
  host: flags.host,
  ...(flags.root ? { root: flags.root } : {}),
  latencyMs: flags.latency,
  maxSandboxes: flags.maxSandboxes ?? null,
  templates: flags.template,
  teamSlug: flags.teamSlug,
  isolation: flags.isolation,
  features: { network: flags.network },
});
process.stdout.write(
  `${JSON.stringify({
    apiUrl: emulator.apiUrl,
    sandboxUrl: emulator.sandboxUrl,
    port: emulator.port,
    root: emulator.root,
    isolation: emulator.isolation,
  })}\n`,
);

const shutdown = (): void => {
  void emulator.close().then(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
