import { Argument, type Command } from 'commander';
import type { CliIo } from '../cli-io';
import { bashCompletionScript } from '../completion/bash-completion';
import { commandTreeOf } from '../completion/command-tree';
import { zshCompletionScript } from '../completion/zsh-completion';
import { withExamples } from './command-support';

export function registerCompletionCommand(program: Command, io: CliIo): void {
  const command = program
    .command('completion')
    .description('print a shell completion script (commands, options, runtime ids)')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh']))
    .action((shell: 'bash' | 'zsh') => {
      const tree = commandTreeOf(program);
      io.stdout.write(shell === 'bash' ? bashCompletionScript(tree) : zshCompletionScript(tree));
    });
  withExamples(
    command,
    'source <(runtimectl completion bash)                # this bash',
    'runtimectl completion bash > ~/.local/share/bash-completion/completions/runtimectl',
    'runtimectl completion zsh > "${fpath[1]}/_runtimectl"  # zsh, then restart it',
  );
}
