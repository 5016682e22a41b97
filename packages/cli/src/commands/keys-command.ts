import { API_KEY_SCOPES, newApiKeyToken, tokenSha256, type ApiKeyScope, type ApiKeyView } from '@runtimectl/core';
import { Option, type Command } from 'commander';
import type { CliIo } from '../cli-io';
import { UsageError } from '../errors/usage-error';
import { durationMs } from '../options/parse-options';
import { formatTable } from '../output/format-table';
import { formatRelativeTime } from '../output/relative-time';
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
  /** The runtimes it opens, and their branches. */
  opened_runtimes?: boolean;
}

/** A key made here, for the daemon's config: 256 random bits (see newApiKeyToken) and their hash. */
export function newKey(name: string, scopes: ApiKeyScope[], reach: Pick<NewKey, 'runtimes' | 'conversations' | 'opened_runtimes'> = {}): NewKey {
  const token = newApiKeyToken();
  return { name, token, token_sha256: tokenSha256(token), scopes, ...reach };
}

interface KeyOptions {
  scope: ApiKeyScope[];
  runtime?: string[];
  conversation?: string[];
  openedRuntimes?: boolean;
}

/** What `new` and `create` take: scopes, and optionally the runtimes or conversations the key is limited to. */
function withKeyOptions(command: Command): Command {
  return command
    .addOption(new Option('--scope <scope...>', 'what the key may do (repeatable; every key reads)').choices([...API_KEY_SCOPES]).default(['read']))
    .option('--runtime <id...>', 'only these runtimes and their branches (checkouts, forks)')
    .option('--conversation <id...>', 'only runtimes in these conversations (and new ones opened in them)')
    .option('--opened-runtimes', 'the runtimes the key opens itself, and their branches (an agent’s own)');
}

/** The key's name and reach, refused here (exit 2) when the daemon would refuse them. */
function checkedKey(name: string, options: KeyOptions): { name: string; scopes: ApiKeyScope[]; runtimes?: string[]; conversations?: string[]; opened_runtimes?: boolean } {
  if (!KEY_NAME.test(name)) throw new UsageError(`key name ${JSON.stringify(name)}: 1-64 letters, digits, dots, dashes or underscores`);
  const scoped = options.runtime !== undefined || options.conversation !== undefined || options.openedRuntimes === true;
  if (scoped && options.scope.includes('admin')) throw new UsageError('a key scoped to runtimes, conversations or the runtimes it opens cannot be admin');
  return {
    name,
    scopes: [...new Set(options.scope)],
    ...(options.runtime ? { runtimes: options.runtime } : {}),
    ...(options.conversation ? { conversations: options.conversation } : {}),
    ...(options.openedRuntimes ? { opened_runtimes: true } : {}),
  };
}

const reachOf = (key: ApiKeyView) =>
  [...(key.runtimes ?? []).map((id) => `runtime ${id}`), ...(key.conversations ?? []).map((id) => `conversation ${id}`), ...(key.opened_runtimes ? ['the runtimes it opens'] : [])].join(', ') || 'all';

const tomlList = (values: readonly string[]) => `[${values.map((value) => JSON.stringify(value)).join(', ')}]`;

const KEY_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function registerKeysCommand(program: Command, io: CliIo): void {
  const keys = program.command('keys').description('API keys with scopes for the daemon (see docs/config.md, [[http.auth.keys]])');
  const make = withKeyOptions(
    keys
      .command('new <name>')
      .description('make a key here (no daemon needed): prints its token once and the [[http.auth.keys]] entry to add to runtimed.toml, which holds only its hash'),
  ).action((name: string, options: KeyOptions, cmd: Command) => {
    const ctx = contextOf(cmd, io);
    const { scopes, name: _, ...reach } = checkedKey(name, options);
    const key = newKey(name, scopes, reach);
    ctx.emit(key, {
      human: ({ token, token_sha256, scopes, runtimes, conversations, opened_runtimes }) => [
        `token: ${token}`,
        '(shown once: give it to the caller; the daemon keeps only its hash)',
        '',
        '[[http.auth.keys]]',
        `name = ${JSON.stringify(name)}`,
        `token_sha256 = "${token_sha256}"`,
        `scopes = ${tomlList(scopes)}`,
        ...(runtimes ? [`runtimes = ${tomlList(runtimes)}`] : []),
        ...(conversations ? [`conversations = ${tomlList(conversations)}`] : []),
        ...(opened_runtimes ? ['opened_runtimes = true'] : []),
      ],
      quiet: ({ token }) => [token],
    });
  });
  const create = withKeyOptions(
    keys
      .command('create <name>')
      .description('create a key stored by the daemon (admin key needed): works on every node at once, no restart; prints its token once')
      .option('--expires-in <duration>', 'refused from this long from now on (90m, 12h, 30d)', durationMs(1, 10 * 365 * 86_400_000)),
  ).action(async (name: string, options: KeyOptions & { expiresIn?: number }, cmd: Command) => {
    const ctx = contextOf(cmd, io);
    const expiresInMs = options.expiresIn;
    const result = await ctx.client.createApiKey({ ...checkedKey(name, options), ...(expiresInMs === undefined ? {} : { expires_at_ms: ctx.nowMs() + expiresInMs }) });
    ctx.emit(result, {
      human: ({ token, key }) => [`token: ${token}`, `(shown once: the daemon keeps only its hash; revoke it with \`runtimectl keys revoke ${key.name}\`)`],
      quiet: ({ token }) => [token],
    });
  });
  const list = keys
    .command('list')
    .alias('ls')
    .description('the daemon’s keys: name, source (config or stored), scopes, reach, expiry (never a token)')
    .action(async (_options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const result = await ctx.client.apiKeys();
      const nowMs = ctx.nowMs();
      ctx.emit(result, {
        human: ({ keys }) =>
          keys.length === 0
            ? 'no keys: this daemon runs without auth'
            : formatTable(
                ['NAME', 'SOURCE', 'SCOPES', 'REACH', 'EXPIRES'],
                keys.map((key) => [key.name, key.source, key.scopes.join(','), reachOf(key), key.expires_at_ms === null ? '-' : formatRelativeTime(key.expires_at_ms, nowMs)]),
                ctx.colors,
              ),
        quiet: ({ keys }) => keys.map((key) => key.name),
      });
    });
  const revoke = keys
    .command('revoke <name>')
    .description('revoke a stored key: every node refuses it from its next request on (a key from the config: edit the config)')
    .action(async (name: string, _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const result = await ctx.client.revokeApiKey(name);
      ctx.emit(result, { human: () => `revoked ${result.name}`, quiet: () => [result.name] });
    });
  const examples = [
    'runtimectl keys create agent-7 --scope exec checkpoint --runtime rt_0123456789abcdef0123456789abcdef --expires-in 12h',
    'runtimectl keys create agent-8 --scope exec checkpoint --opened-runtimes',
    'runtimectl keys list',
    'runtimectl keys revoke agent-7',
    'runtimectl keys new dashboard',
    'runtimectl keys new agent-7 --scope exec checkpoint --runtime rt_0123456789abcdef0123456789abcdef',
    'runtimectl keys new ci --scope admin --json',
  ];
  withExamples(keys, ...examples);
  for (const command of [make, create, list, revoke]) withExamples(command, ...examples);
}
