import type { Command } from 'commander';
import { CliContext, type GlobalOptions } from '../cli-context';
import type { CliIo } from '../cli-io';

/** The context of the command being run: its global options (--url, --json …) resolved. */
export function contextOf(command: Command, io: CliIo): CliContext {
  return new CliContext(command.optsWithGlobals<GlobalOptions>(), io);
}

/** Every command's --help ends with at least one example. */
export function withExamples(command: Command, ...examples: string[]): Command {
  return command.addHelpText('after', `\nExample${examples.length > 1 ? 's' : ''}:\n${examples.map((line) => `  $ ${line}`).join('\n')}\n`);
}

/** The command as typed, from the program down (`runtimectl webhooks deliveries`): what its usage lines name. */
export function commandPathOf(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at !== null; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}
