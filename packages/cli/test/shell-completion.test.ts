import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntimectlClient } from '@runtimectl/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, runCli } from './cli-process';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';

let daemon: RuntimedProcess;
let workDir: string;
let bashScript: string;
let childId: string;

beforeAll(async () => {
  daemon = await startRuntimed();
  const client = createRuntimectlClient({ baseUrl: daemon.url });
  await client.open({ runtime_id: 'demo', conversation_id: 'c', sender_id: 's' });
  await client.open({ runtime_id: 'delta', conversation_id: 'c', sender_id: 's' });
  const { checkpoint_id: checkpointId } = await client.checkpoint({ runtime_id: 'demo' });
  childId = (await client.checkout({ checkpoint_id: checkpointId })).runtime.runtime_id;
  // A PATH entry where `runtimectl` is the built bin, as after `npm i -g @runtimectl/cli`.
  workDir = mkdtempSync(join(tmpdir(), 'runtimectl-completion-'));
  symlinkSync(CLI_BIN, join(workDir, 'runtimectl'));
  const generated = await runCli(['completion', 'bash']);
  expect(generated.code).toBe(0);
  bashScript = join(workDir, 'runtimectl.bash');
  writeFileSync(bashScript, generated.stdout);
});

afterAll(async () => {
  await daemon?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

/** Sources the script in a real bash and asks its completion function about `line` (cursor at the end). */
function complete(line: string): string[] {
  const program = `
source "$1"
COMP_LINE="$2"
COMP_POINT=\${#COMP_LINE}
read -r -a COMP_WORDS <<< "$COMP_LINE"
[[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
_runtimectl_completion
printf '%s\\n' "\${COMPREPLY[@]}"
`;
  const output = execFileSync('bash', ['--norc', '--noprofile', '-c', program, 'bash', bashScript, line], {
    env: { PATH: `${workDir}:${process.env.PATH}`, HOME: process.env.HOME, RUNTIMECTL_URL: daemon.url },
    encoding: 'utf8',
  });
  return output.split('\n').filter((word) => word !== '');
}

describe('bash completion', () => {
  it('registers a completion function for runtimectl', () => {
    const registered = execFileSync('bash', ['--norc', '--noprofile', '-c', 'source "$1" && complete -p runtimectl', 'bash', bashScript], { encoding: 'utf8' });
    expect(registered.trim()).toBe('complete -F _runtimectl_completion runtimectl');
  });

  it('completes command names from a partial word', () => {
    expect(complete('runtimectl che')).toEqual(['checkpoint', 'checkout']);
    expect(complete('runtimectl de')).toEqual(['delete-snapshot']);
    expect(complete('runtimectl --json l')).toEqual(['ls', 'ls-tree', 'log']);
    // A global option's value is not the command.
    expect(complete('runtimectl --idempotency-key k-1 che')).toEqual(['checkpoint', 'checkout']);
    expect(complete('runtimectl up')).toEqual(['update']);
    expect(complete('runtimectl exp')).toEqual(['export']);
  });

  it("completes a command's own options and the global ones", () => {
    expect(complete('runtimectl close --')).toEqual(expect.arrayContaining(['--cascade', '--keep-snapshots', '--json', '--url', '--help']));
    expect(complete('runtimectl close --c')).toEqual(['--cascade']);
    expect(complete('runtimectl log demo --g')).toEqual(['--graph']);
  });

  it('completes option choices and argument choices', () => {
    expect(complete('runtimectl ls --status p')).toEqual(['paused']);
    expect(complete('runtimectl completion ')).toEqual(['bash', 'zsh']);
    expect(complete('runtimectl update demo --auto-resume ')).toEqual(['on', 'off', 'default']);
    expect(complete('runtimectl update demo --no-')).toEqual(['--no-expiry']);
  });

  it('completes runtime ids from the daemon, including checkout children with colons', () => {
    expect(complete('runtimectl show de')).toEqual(['delta', 'demo', childId]);
    expect(complete('runtimectl update de')).toEqual(['delta', 'demo', childId]);
    // bash splits words at ':', so the reply is the part after the last colon of the word.
    const suffix = childId.slice('demo:checkout:'.length);
    expect(complete(`runtimectl exec demo:checkout:${suffix.slice(0, 4)}`)).toEqual([suffix]);
    expect(complete('runtimectl --url http://127.0.0.1:9 show de')).toEqual([]);
  });

  it('offers nothing after an option that takes a free value', () => {
    expect(complete('runtimectl open --id ')).toEqual([]);
  });
});

const zshAvailable = spawnSync('zsh', ['--version']).status === 0;

describe.skipIf(!zshAvailable)('zsh completion', () => {
  it('loads after compinit and registers _runtimectl for runtimectl', async () => {
    const generated = await runCli(['completion', 'zsh']);
    const script = join(workDir, '_runtimectl');
    writeFileSync(script, generated.stdout);
    const output = execFileSync('zsh', ['-f', '-c', 'autoload -U compinit && compinit -u -D && source "$1" && print -r -- $_comps[runtimectl]', 'zsh', script], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: workDir },
    });
    expect(output.trim()).toBe('_runtimectl');
  });
});
