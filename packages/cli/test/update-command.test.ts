import { RuntimeDetailSchema, RuntimeUpdateResultSchema } from '@runtimectl/core';
import { describe, expect, it } from 'vitest';
import { runCli, runCliJson } from './cli-process';
import { expectShape } from './expect-shape';
import { useSharedRuntimed } from './shared-runtimed';

const shared = useSharedRuntimed();

const detailOf = async (runtimeId: string) => expectShape(RuntimeDetailSchema, await runCliJson(['show', runtimeId], shared.at));

describe.concurrent('update', () => {
  it('changes the lifecycle policies of a runtime, says what it changed, and show prints them', async () => {
    await shared.openRuntime('up-policies');
    const before = Date.now();
    const updated = await runCli(
      ['update', 'up-policies', '--expires-in', '2h', '--idle-pause-after', '15m', '--auto-resume', 'on', '--verify', 'off', '--keep-last', '3', '--expire-unused-after', '7d'],
      shared.at,
    );
    expect(updated).toMatchObject({ code: 0, stderr: '' });
    expect(updated.stdout).toBe('updated up-policies: expires in 2h, idle pause after 15m, auto-resume on, verify restores off, keep last 3 snapshots, expire unused snapshots after 7d\n');
    const detail = await detailOf('up-policies');
    expect(detail).toMatchObject({ idle_pause_after_ms: 900_000, auto_resume: true, verify: false, retention: { keep_last: 3, expire_unused_after_ms: 604_800_000 } });
    expect(detail.expires_at_ms! - before).toBeGreaterThanOrEqual(7_200_000);
    expect(detail.expires_at_ms! - Date.now()).toBeLessThanOrEqual(7_200_000);
    const shown = await runCli(['show', 'up-policies'], shared.at);
    expect(shown.stdout).toMatch(/^retention\s+keep last 3, expire unused after 7d$/m);
  });

  it('default gives a setting back to the daemon, off turns a rule off, --no-expiry removes the TTL', async () => {
    await shared.client.open({ runtime_id: 'up-defaults', conversation_id: 'c', sender_id: 's', max_lifetime_ms: 3_600_000, auto_resume: true, verify: true, idle_pause_after_ms: 60_000, retention: { keep_last: 2 } });
    const updated = await runCli(['update', 'up-defaults', '--no-expiry', '--idle-pause-after', 'default', '--auto-resume', 'default', '--verify', 'default', '--keep-last', 'off'], shared.at);
    expect(updated).toMatchObject({ code: 0, stderr: '', stdout: "updated up-defaults: no expiry, idle pause the daemon's, auto-resume the daemon's, verify restores the daemon's, keep last off\n" });
    expect(await detailOf('up-defaults')).toMatchObject({ expires_at_ms: null, idle_pause_after_ms: null, auto_resume: null, verify: null, retention: { keep_last: null } });
    await runCli(['update', 'up-defaults', '--keep-last', 'default'], shared.at);
    expect((await detailOf('up-defaults')).retention).toEqual({});
  });

  it('sets and removes metadata keys, keeping the others; retention keys given alone keep the rest', async () => {
    await shared.client.open({ runtime_id: 'up-meta', conversation_id: 'c', sender_id: 's', metadata: { team: 'infra', stage: 'dev' }, retention: { expire_unused_after_ms: 60_000 } });
    const updated = expectShape(
      RuntimeUpdateResultSchema,
      await runCliJson(['update', 'up-meta', '-m', 'stage=prod', 'priority=2', '--unset-metadata', 'team', '--keep-last', '5'], shared.at),
    );
    expect(updated.runtime.runtime_id).toBe('up-meta');
    expect(await detailOf('up-meta')).toMatchObject({ metadata: { stage: 'prod', priority: 2 }, retention: { keep_last: 5, expire_unused_after_ms: 60_000 } });
    const quiet = await runCli(['update', 'up-meta', '-m', 'x=1', '--quiet'], shared.at);
    expect(quiet).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('with nothing to change, or a bad value, is a usage error naming update --help', async () => {
    await shared.openRuntime('up-usage');
    const nothing = await runCli(['update', 'up-usage'], shared.at);
    expect(nothing).toMatchObject({ code: 2, stderr: 'runtimectl: update: give at least one setting to change (see `runtimectl update --help`)\n' });
    const badMode = await runCli(['update', 'up-usage', '--auto-resume', 'maybe'], shared.at);
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toMatch(/Allowed choices are on, off, default\. \(see runtimectl update --help\)\n$/);
    const badDuration = await runCli(['update', 'up-usage', '--idle-pause-after', 'soon'], shared.at);
    expect(badDuration.code).toBe(2);
    expect(badDuration.stderr).toMatch(/expected a duration .* or default, got "soon"/);
  });
});

describe('open with snapshot retention', () => {
  it('--keep-last and --expire-unused-after set the runtime\'s own retention', async () => {
    const opened = await runCli(['open', '--id', 'kept', '--keep-last', '4', '--expire-unused-after', '2d'], shared.at);
    expect(opened).toMatchObject({ code: 0, stderr: '' });
    expect((await detailOf('kept')).retention).toEqual({ keep_last: 4, expire_unused_after_ms: 172_800_000 });
    await runCli(['open', '--id', 'unkept', '--keep-last', 'off'], shared.at);
    expect((await detailOf('unkept')).retention).toEqual({ keep_last: null });
  });
});
