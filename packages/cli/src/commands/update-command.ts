import { Option, type Command } from 'commander';
import { MAX_LIFETIME_MS, type JsonValue, type RuntimeDetail, type RuntimeUpdateRequest } from '@runtimectl/core';
import type { CliIo } from '../cli-io';
import { UsageError } from '../errors/usage-error';
import { durationMs, idlePauseAfterMs, orKeywords, parseMetadataPairs } from '../options/parse-options';
import { retentionOptions, retentionWith, type RetentionOptions, type RuleValue } from '../options/retention-options';
import { metadataOption } from '../options/shared-options';
import { formatDuration } from '../output/format-duration';
import { contextOf, withExamples } from './command-support';

type Mode = 'on' | 'off' | 'default';

interface UpdateOptions extends RetentionOptions {
  expiresIn?: number;
  expiry?: boolean;
  idlePauseAfter?: number | 'default';
  autoResume?: Mode;
  verify?: Mode;
  metadata?: string[];
  unsetMetadata?: string[];
}

const modeValue = (mode: Mode) => (mode === 'default' ? null : mode === 'on');
const DAEMON = "the daemon's";

/** What the line a person reads says was changed, in the order of the options. */
function changesOf(options: UpdateOptions): string[] {
  const rule = (value: RuleValue, shown: (n: number) => string) => (value === 'default' ? DAEMON : value === 'off' ? 'off' : shown(value));
  const changes: string[] = [];
  if (options.expiresIn !== undefined) changes.push(`expires in ${formatDuration(options.expiresIn)}`);
  if (options.expiry === false) changes.push('no expiry');
  if (options.idlePauseAfter !== undefined) {
    const idle = options.idlePauseAfter;
    changes.push(`idle pause ${idle === 'default' ? DAEMON : idle === 0 ? 'off' : `after ${formatDuration(idle)}`}`);
  }
  if (options.autoResume !== undefined) changes.push(`auto-resume ${options.autoResume === 'default' ? DAEMON : options.autoResume}`);
  if (options.verify !== undefined) changes.push(`verify restores ${options.verify === 'default' ? DAEMON : options.verify}`);
  if (options.keepLast !== undefined) changes.push(`keep last ${rule(options.keepLast, (n) => `${n} snapshot${n === 1 ? '' : 's'}`)}`);
  if (options.expireUnusedAfter !== undefined) changes.push(`expire unused snapshots ${rule(options.expireUnusedAfter, (ms) => `after ${formatDuration(ms)}`)}`);
  if (options.metadata !== undefined || options.unsetMetadata !== undefined) changes.push('metadata');
  return changes;
}

/** The runtime's metadata with `-m` keys set and `--unset-metadata` keys removed; undefined when neither was given. */
function metadataWith(current: Record<string, JsonValue>, options: UpdateOptions): Record<string, JsonValue> | undefined {
  const set = parseMetadataPairs(options.metadata);
  if (set === undefined && options.unsetMetadata === undefined) return undefined;
  const metadata = { ...current, ...set };
  for (const key of options.unsetMetadata ?? []) delete metadata[key];
  return metadata;
}

/**
 * The update request for `options`. Metadata and retention are replaced whole by the API, so a
 * key given alone is applied over the runtime's current ones (`current`, read just before).
 */
function updateRequestOf(runtimeId: string, options: UpdateOptions, current: RuntimeDetail | undefined, nowMs: number): RuntimeUpdateRequest {
  const metadata = current && metadataWith(current.metadata, options);
  const retention = current && retentionWith(current.retention, options);
  return {
    runtime_id: runtimeId,
    ...(options.expiresIn !== undefined ? { expires_at_ms: nowMs + options.expiresIn } : options.expiry === false ? { expires_at_ms: null } : {}),
    ...(options.idlePauseAfter !== undefined ? { idle_pause_after_ms: options.idlePauseAfter === 'default' ? null : options.idlePauseAfter } : {}),
    ...(options.autoResume !== undefined ? { auto_resume: modeValue(options.autoResume) } : {}),
    ...(options.verify !== undefined ? { verify: modeValue(options.verify) } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    ...(retention !== undefined ? { retention } : {}),
  };
}

export function registerUpdateCommand(program: Command, io: CliIo): void {
  const modes: Mode[] = ['on', 'off', 'default'];
  const command = program
    .command('update')
    .description("change a runtime's lifecycle policies (TTL, idle pause, auto-resume, restore verification), snapshot retention or metadata")
    .argument('<runtime>', 'runtime id')
    .option('--expires-in <duration>', 'close it this long from now (a new TTL: 90s, 15m, 2h, 7d)', durationMs(1, MAX_LIFETIME_MS))
    .option('--no-expiry', 'remove its TTL')
    .option('--idle-pause-after <duration>', "pause it after this long without an operation (at least 1s; 0: never; default: the daemon's)", orKeywords(idlePauseAfterMs, 'default'))
    .addOption(new Option('--auto-resume <mode>', "an operation on it while paused resumes it first (default: the daemon's)").choices(modes))
    .addOption(new Option('--verify <mode>', "verify checkouts and resumes against the checkpoint's manifest (default: the daemon's and provider's)").choices(modes))
    .addOption(metadataOption('set these metadata keys (the others stay); values are JSON when they parse, else text'))
    .option('--unset-metadata <key...>', 'remove these metadata keys')
    .action(async (runtimeId: string, options: UpdateOptions, cmd: Command) => {
      const changes = changesOf(options);
      if (changes.length === 0) throw new UsageError('update: give at least one setting to change (see `runtimectl update --help`)');
      if (options.expiresIn !== undefined && options.expiry === false) throw new UsageError('update: give --expires-in or --no-expiry, not both');
      const ctx = contextOf(cmd, io);
      const mergesCurrent = options.metadata !== undefined || options.unsetMetadata !== undefined || options.keepLast !== undefined || options.expireUnusedAfter !== undefined;
      const current = mergesCurrent ? await ctx.client.get(runtimeId) : undefined;
      const result = await ctx.client.update(updateRequestOf(runtimeId, options, current, ctx.nowMs()));
      ctx.emit(result, { human: ({ runtime }) => `updated ${ctx.colors.bold(runtime.runtime_id)}: ${changes.join(', ')}` });
    });
  for (const option of retentionOptions(['off', 'default'])) command.addOption(option);
  withExamples(
    command,
    'runtimectl update demo --expires-in 8h --idle-pause-after 15m --auto-resume on',
    'runtimectl update demo --keep-last 3 --expire-unused-after 7d',
    'runtimectl update demo -m stage=prod --unset-metadata draft',
    'runtimectl update demo --no-expiry --idle-pause-after default --verify default',
  );
}
