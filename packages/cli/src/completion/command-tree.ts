import type { Command } from 'commander';

/** How a positional argument is completed. */
export type ArgumentCompletion = { kind: 'runtime' } | { kind: 'file' } | { kind: 'choices'; choices: string[] } | { kind: 'none' };

export interface CompletionOption {
  /** e.g. ['-m', '--metadata'] */
  flags: string[];
  description: string;
  takesValue: boolean;
  repeatable: boolean;
  choices: string[] | undefined;
}

export interface CompletionArgument {
  name: string;
  variadic: boolean;
  completion: ArgumentCompletion;
}

export interface CompletionCommand {
  name: string;
  description: string;
  options: CompletionOption[];
  arguments: CompletionArgument[];
}

/** The commands and options a completion script offers, read from the commander program itself. */
export interface CommandTree {
  program: string;
  globalOptions: CompletionOption[];
  commands: CompletionCommand[];
}

const HELP_OPTION: CompletionOption = { flags: ['-h', '--help'], description: 'show help', takesValue: false, repeatable: false, choices: undefined };

/** Reads the tree from the program, so a new command or option is completed without touching the scripts. */
export function commandTreeOf(program: Command): CommandTree {
  return {
    program: program.name(),
    globalOptions: [...optionsOf(program), HELP_OPTION],
    commands: program.commands.map((command) => ({
      name: command.name(),
      description: command.description(),
      options: [...optionsOf(command), HELP_OPTION],
      arguments: command.registeredArguments.map((argument) => ({
        name: argument.name(),
        variadic: argument.variadic,
        completion: completionOfArgument(argument.name(), argument.argChoices),
      })),
    })),
  };
}

function optionsOf(command: Command): CompletionOption[] {
  return command.options
    .filter((option) => !option.hidden)
    .map((option) => ({
      flags: [option.short, option.long].filter((flag): flag is string => flag !== undefined),
      description: option.description,
      takesValue: option.required || option.optional,
      repeatable: option.variadic,
      choices: option.argChoices,
    }));
}

/** Positional names carry their meaning: `<runtime>` completes live ids, `[source]` local files. */
function completionOfArgument(name: string, choices: string[] | undefined): ArgumentCompletion {
  if (choices) return { kind: 'choices', choices };
  if (name === 'runtime') return { kind: 'runtime' };
  if (name === 'source') return { kind: 'file' };
  return { kind: 'none' };
}
