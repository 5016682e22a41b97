import { randomBytes } from 'node:crypto';
import { API_KEY_SCOPES, tokenSha256, type ApiKeyScope } from '@runtimectl/core';
import { Option, type Command } from 'commander';
import type { CliIo } from '../cli-io';
import { UsageError } from '../errors/usage-error';
import { contextOf, withExamples } from './command-support';

/** A new key: the token (shown once), its SHA-256 (what the daemon's config holds) and the scopes. */
export interface NewKey {
  name: string;
  token: string;
  token_sha256: string;
  scopes: ApiKeyScope[];
  /** Only these runtimes (and their branches), or runtimes of these conversations. */
  runtimes?: string[];
  conversations?: string[];
}

/** `rtk_` and 32 random bytes, base64url: 256 bits, visible ASCII, one word in a header. */
export function newKey(name: string, scopes: ApiKeyScope[], reach: Pick<NewKey, 'runtimes' | 'conversations'> = {}): NewKey {
  const token = `rtk_${randomBytes(32).toString('base64url')}`;
  return { name, token, token_sha256: tokenSha256(token), scopes, ...reach };
}

const tomlList = (values: readonly string[]) => `[${values.map((value) => JSON.stringify(value)).join(', ')}]`;

const KEY_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function registerKeysCommand(program: Command, io: CliIo): void {
  const keys = program.command('keys').description('API keys with scopes for the daemon (see docs/config.md, [[http.auth.keys]])');
  const create = keys
    .command('new <name>')
    .description('make a key here (no daemon needed): prints its token once and the [[http.auth.keys]] entry to add to runtimed.toml, which holds only its hash')
    .addOption(new Option('--scope <scope...>', 'what the key may do (repeatable; every key reads)').choices([...API_KEY_SCOPES]).default(['read']))
    .option('--runtime <id...>', 'only these runtimes and their branches (checkouts, forks)')
    .option('--conversation <id...>', 'only runtimes in these conversations (and new ones opened in them)')
    .action((name: string, options: { scope: ApiKeyScope[]; runtime?: string[]; conversation?: string[] }, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      if (!KEY_NAME.test(name)) throw new UsageError(`key name ${JSON.stringify(name)}: 1-64 letters, digits, dots, dashes or underscores`);
      const scoped = options.runtime !== undefined || options.conversation !== undefined;
      if (scoped && options.scope.includes('admin')) throw new UsageError('a key scoped to runtimes or conversations cannot be admin');
      const key = newKey(name, [...new Set(options.scope)], {
        ...(options.runtime ? { runtimes: options.runtime } : {}),
        ...(options.conversation ? { conversations: options.conversation } : {}),
      });
      ctx.emit(key, {
        human: ({ token, token_sha256, scopes, runtimes, conversations }) => [
          `token: ${token}`,
          '(shown once: give it to the caller; the daemon keeps only its hash)',
          '',
          '[[http.auth.keys]]',
          `name = ${JSON.stringify(name)}`,
          `token_sha256 = "${token_sha256}"`,
          `scopes = ${tomlList(scopes)}`,
          ...(runtimes ? [`runtimes = ${tomlList(runtimes)}`] : []),
          ...(conversations ? [`conversations = ${tomlList(conversations)}`] : []),
        ],
        quiet: ({ token }) => [token],
      });
    });
  const examples = [
    'runtimectl keys new dashboard',
    'runtimectl keys new agent-7 --scope exec checkpoint --runtime rt_0123456789abcdef0123456789abcdef',
    'runtimectl keys new ci --scope admin --json',
  ];
  withExamples(keys, ...examples);
  withExamples(create, ...examples);
}
