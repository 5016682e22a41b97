import {
  CheckpointDiffResultSchema,
  CheckpointListResultSchema,
  CheckpointTreeResultSchema,
  RuntimeCheckoutChildrenResultSchema,
  RuntimeCheckoutResultSchema,
  RuntimeForkResultSchema,
  RuntimeCheckpointResultSchema,
  RuntimeCheckpointSnapshotDeleteResultSchema,
  RuntimePauseResultSchema,
  RuntimeResumeResultSchema,
  SessionForkResultSchema,
} from '@runtimectl/core';
import { describe, expect, it } from 'vitest';
import type { LineageTree } from '../src/graph/lineage-tree';
import { runCli, runCliJson } from './cli-process';
import { expectShape } from './expect-shape';
import { useSharedRuntimed } from './shared-runtimed';

const shared = useSharedRuntimed();

describe.concurrent('checkpoint, checkout, fork, pause, resume, delete-snapshot', () => {
  it('checkpoint names and tags a checkpoint, prints its id, and reports a reused snapshot', async () => {
    await shared.openRuntime('cp');
    const first = await runCli(['checkpoint', 'cp', '-n', 'first', '-m', 'build=42'], shared.at);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^checkpoint rtcp_[0-9a-f]{32} of cp "first"\n$/);
    expect(first.stderr).toBe('');
    const second = expectShape(RuntimeCheckpointResultSchema, await runCliJson(['checkpoint', 'cp', '--name', 'second'], shared.at));
    expect(second).toMatchObject({ name: 'second', reused_backend_snapshot: true, runtime: { runtime_id: 'cp' } });
    expect(second.parent_checkpoint_id).toBe(/rtcp_[0-9a-f]{32}/.exec(first.stdout)![0]);
    const view = await shared.client.getCheckpoint(second.parent_checkpoint_id!);
    expect(view.metadata).toEqual({ build: 42 });
    const quiet = await runCli(['checkpoint', 'cp', '-q'], shared.at);
    expect(quiet.stdout).toMatch(/^rtcp_[0-9a-f]{32}\n$/);
  });

  it('diff prints what changed between two checkpoints as git does (--name-status, --stat), or against a live runtime; --json is the whole answer', async () => {
    await shared.openRuntime('df');
    await shared.client.writeFileBytes('df', 'keep.txt', 'k');
    await shared.client.writeFileBytes('df', 'edit.txt', 'v1');
    const first = await shared.client.checkpoint({ runtime_id: 'df' });
    await shared.client.writeFileBytes('df', 'edit.txt', 'version 2');
    await shared.client.writeFileBytes('df', 'new.txt', 'n');
    const second = await shared.client.checkpoint({ runtime_id: 'df' });
    const nameStatus = await runCli(['diff', first.checkpoint_id, second.checkpoint_id, '--name-status'], shared.at);
    expect(nameStatus).toMatchObject({ code: 0, stdout: 'M\tedit.txt\nA\tnew.txt\n' });
    const stat = await runCli(['diff', first.checkpoint_id, second.checkpoint_id, '--stat'], shared.at);
    expect(stat.stdout).toBe(' edit.txt | 2 -> 9 bytes\n new.txt  | - -> 1 bytes\n 2 paths changed: 1 added, 1 modified\n');
    const json = expectShape(CheckpointDiffResultSchema, await runCliJson(['diff', first.checkpoint_id, second.checkpoint_id], shared.at));
    expect(json.summary).toEqual({ added: 1, removed: 0, modified: 1, mode_changed: 0, type_changed: 0 });
    await shared.client.writeFileBytes('df', 'live.txt', 'l');
    const live = await runCli(['diff', second.checkpoint_id, '--runtime', 'df'], shared.at);
    expect(live.stdout).toBe('A\tlive.txt\n1 path changed: 1 added\n');
    const neither = await runCli(['diff', first.checkpoint_id], shared.at);
    expect(neither).toMatchObject({ code: 2, stderr: 'runtimectl: diff needs something to compare with: a second checkpoint, or --runtime <runtime> for its live workspace\n' });
    const both = await runCli(['diff', first.checkpoint_id, second.checkpoint_id, '--runtime', 'df'], shared.at);
    expect(both).toMatchObject({ code: 2, stderr: 'runtimectl: give either a second checkpoint or --runtime <runtime>, not both\n' });
    const patch = await runCli(['diff', first.checkpoint_id, second.checkpoint_id, '--patch'], shared.at);
    expect(patch).toMatchObject({ code: 0, stderr: '' });
    expect(patch.stdout).toBe(
      'diff --git a/edit.txt b/edit.txt\n--- a/edit.txt\n+++ b/edit.txt\n@@ -1,1 +1,1 @@\n-v1\n\\ No newline at end of file\n+version 2\n\\ No newline at end of file\n' +
        'diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+n\n\\ No newline at end of file\n',
    );
  });

  it('ls-tree lists a directory of a checkpoint as git ls-tree -l does, from the store alone (its snapshot deleted), every page; --quiet paths, --json the answer', async () => {
    await shared.openRuntime('lt');
    await shared.client.writeFileBytes('lt', 'src/main.ts', 'export {};\n');
    await shared.client.writeFileBytes('lt', 'src/lib/util.ts', 'u');
    await shared.client.writeFileBytes('lt', 'README.md', 'r');
    const { checkpoint_id: checkpointId } = await shared.client.checkpoint({ runtime_id: 'lt' });
    await shared.client.writeFileBytes('lt', 'src/later.ts', 'not in the checkpoint');
    await shared.client.deleteCheckpointSnapshot({ checkpoint_id: checkpointId });
    const root = await runCli(['ls-tree', checkpointId], shared.at);
    expect(root).toMatchObject({ code: 0, stderr: '' });
    expect(root.stdout).toBe('100644 file             1\tREADME.md\n040755 directory        -\tsrc\n');
    const src = await runCli(['ls-tree', checkpointId, 'src', '--quiet'], shared.at);
    expect(src.stdout).toBe('src/lib\nsrc/main.ts\n');
    const json = expectShape(CheckpointTreeResultSchema, await runCliJson(['ls-tree', checkpointId, 'src/lib'], shared.at));
    expect(json).toEqual({ checkpoint_id: checkpointId, path: 'src/lib', entries: [{ name: 'util.ts', kind: 'file', mode: expect.any(Number), size: 1, target: null }], next_cursor: null });
    const missing = await runCli(['ls-tree', checkpointId, 'nowhere'], shared.at);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/not found/);
  });

  it('checkout starts a new runtime from a checkpoint, in each output mode', async () => {
    await shared.openRuntime('co');
    await shared.client.writeFileBytes('co', 'f.txt', 'from co');
    const { checkpoint_id: checkpointId } = await shared.client.checkpoint({ runtime_id: 'co' });
    const human = await runCli(['checkout', checkpointId], shared.at);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^checked out ${checkpointId} of co as co:checkout:[0-9a-f]{32}\\n$`));
    const json = expectShape(RuntimeCheckoutResultSchema, await runCliJson(['checkout', checkpointId, '--sender', 'other'], shared.at));
    expect(json).toMatchObject({ checkpoint_id: checkpointId, source_runtime_id: 'co', runtime: { sender_id: 'other', status: 'idle' } });
    const quiet = await runCli(['checkout', checkpointId, '--quiet'], shared.at);
    const childId = quiet.stdout.trim();
    expect(childId).toMatch(/^co:checkout:[0-9a-f]{32}$/);
    expect((await runCli(['cat', childId, 'f.txt'], shared.at)).stdout).toBe('from co');
  });

  it('fork checkpoints and checks out in one step (the SessionForkResult shape)', async () => {
    await shared.openRuntime('fk');
    const human = await runCli(['fork', 'fk', '--name', 'before'], shared.at);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^forked fk at rtcp_[0-9a-f]{32} into fk:checkout:[0-9a-f]{32}\n$/);
    const json = expectShape(SessionForkResultSchema, await runCliJson(['fork', 'fk'], shared.at));
    expect(json.parent.runtime_id).toBe('fk');
    expect(json.child.runtime_id).toMatch(/^fk:checkout:/);
    const detail = await shared.client.get(json.child.runtime_id);
    expect(detail).toMatchObject({ parent_runtime_id: 'fk', forked_from_checkpoint_id: json.checkpoint_id });
  });

  it('checkout -n N starts N runtimes: one line per child, --json with every child, --quiet their ids', async () => {
    await shared.openRuntime('con');
    await shared.client.writeFileBytes('con', 'f.txt', 'from con');
    const { checkpoint_id: checkpointId } = await shared.client.checkpoint({ runtime_id: 'con' });
    const human = await runCli(['checkout', checkpointId, '-n', '3'], shared.at);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^(con:checkout:[0-9a-f]{32}\n){3}$/);
    const json = expectShape(RuntimeCheckoutChildrenResultSchema, await runCliJson(['checkout', checkpointId, '--count', '2'], shared.at));
    expect(json).toMatchObject({ checkpoint_id: checkpointId, source_runtime_id: 'con' });
    expect(json.results.map((child) => ('runtime' in child ? child.runtime.status : child.error.code))).toEqual(['idle', 'idle']);
    const quiet = await runCli(['checkout', checkpointId, '-n', '2', '-q'], shared.at);
    const ids = quiet.stdout.trim().split('\n');
    expect(ids).toHaveLength(2);
    for (const id of ids) expect((await runCli(['cat', id, 'f.txt'], shared.at)).stdout).toBe('from con');
    const refused = await runCli(['checkout', checkpointId, '-n', '0'], shared.at);
    expect(refused.code).toBe(2);
  });

  it('fork -n N checkpoints once and checks the checkpoint out N ways, one line per child', async () => {
    await shared.openRuntime('fkn');
    const human = await runCli(['fork', 'fkn', '-n', '2', '--name', 'branch'], shared.at);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^(fkn:checkout:[0-9a-f]{32}\n){2}$/);
    const json = expectShape(RuntimeForkResultSchema, await runCliJson(['fork', 'fkn', '-n', '3'], shared.at));
    expect(json).toMatchObject({ source_runtime_id: 'fkn', reused_backend_snapshot: true });
    expect(json.results.filter((child) => 'runtime' in child)).toHaveLength(3);
    expect((await shared.client.listCheckpoints('fkn')).checkpoints.map((view) => view.name)).toEqual([null, 'branch']);
  });

  it('pause and resume keep the runtime id; --json prints the API responses', async () => {
    await shared.openRuntime('pr');
    const paused = await runCli(['pause', 'pr', '-n', 'eod'], shared.at);
    expect(paused.code).toBe(0);
    expect(paused.stdout).toMatch(/^paused pr at rtcp_[0-9a-f]{32}\n$/);
    expect((await shared.client.get('pr')).runtime.status).toBe('paused');
    const resumed = expectShape(RuntimeResumeResultSchema, await runCliJson(['resume', 'pr'], shared.at));
    expect(resumed.runtime).toMatchObject({ runtime_id: 'pr', status: 'idle' });
    const pausedJson = expectShape(RuntimePauseResultSchema, await runCliJson(['pause', 'pr'], shared.at));
    expect(pausedJson.runtime.status).toBe('paused');
    const resumedHuman = await runCli(['resume', 'pr'], shared.at);
    expect(resumedHuman).toMatchObject({ code: 0, stdout: 'resumed pr (idle)\n' });
  });

  it('checkpoint and pause say when background processes were running as their snapshot was taken (fs: real jobs)', async () => {
    await shared.openRuntime('bg', 'fs');
    await shared.client.exec({ runtime_id: 'bg', command: 'sleep 60 >/dev/null 2>&1 &' });
    const note = ' (1 background process was running: the snapshot holds what they had written by then)';
    const checkpoint = await runCli(['checkpoint', 'bg'], shared.at);
    expect(checkpoint).toMatchObject({ code: 0, stderr: '' });
    expect(checkpoint.stdout).toMatch(/^checkpoint rtcp_[0-9a-f]{32} of bg/);
    expect(checkpoint.stdout.endsWith(`${note}\n`)).toBe(true);
    const json = expectShape(RuntimeCheckpointResultSchema, await runCliJson(['checkpoint', 'bg'], shared.at));
    expect(json).toMatchObject({ reused_backend_snapshot: false, background_processes: 1 });
    const paused = await runCli(['pause', 'bg'], shared.at);
    expect(paused.stdout).toMatch(/^paused bg at rtcp_[0-9a-f]{32} \(1 background process was running/);
    await shared.client.close({ runtime_id: 'bg' });
  });

  it('resume of a runtime that is not paused is a conflict (exit 5)', async () => {
    await shared.openRuntime('np');
    const result = await runCli(['resume', 'np'], shared.at);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^runtimectl: .*\(runtime_not_paused\) \[request [^\]]+\]\n$/);
  });

  it('delete-snapshot deletes once, then says there is nothing left; checkout then fails with exit 4', async () => {
    await shared.openRuntime('ds');
    const { checkpoint_id: checkpointId } = await shared.client.checkpoint({ runtime_id: 'ds' });
    await shared.client.close({ runtime_id: 'ds', keep_snapshots: true });
    const deleted = await runCli(['delete-snapshot', checkpointId], shared.at);
    expect(deleted).toMatchObject({ code: 0, stdout: `deleted the snapshot of ${checkpointId} (cleared from 1 checkpoint)\n` });
    const again = expectShape(RuntimeCheckpointSnapshotDeleteResultSchema, await runCliJson(['delete-snapshot', checkpointId], shared.at));
    expect(again.deleted_provider_snapshot).toBe(false);
    const checkout = await runCli(['checkout', checkpointId], shared.at);
    expect(checkout.code).toBe(4);
    expect(checkout.stderr).toMatch(/\(checkpoint_snapshot_deleted\)/);
  });

  it('log lists checkpoints newest first as a table, JSON or ids', async () => {
    await shared.openRuntime('lg');
    const ids: string[] = [];
    for (const name of ['one', 'two']) {
      await shared.client.writeFileBytes('lg', 'n.txt', name);
      ids.push((await shared.client.checkpoint({ runtime_id: 'lg', name })).checkpoint_id);
    }
    ids.push((await shared.client.pause({ runtime_id: 'lg', name: 'rest' })).checkpoint_id);
    const human = await runCli(['log', 'lg'], shared.at);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CHECKPOINT\s+KIND\s+NAME\s+CREATED\s+SNAPSHOT$/);
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/).slice(0, 3))).toEqual([
      [ids[2], 'pause', 'rest'],
      [ids[1], 'checkpoint', 'two'],
      [ids[0], 'checkpoint', 'one'],
    ]);
    const json = expectShape(CheckpointListResultSchema, await runCliJson(['log', 'lg'], shared.at));
    expect(json.checkpoints.map((checkpoint) => checkpoint.checkpoint_id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(json.next_cursor).toBeNull();
    expect((await runCli(['log', 'lg', '-q'], shared.at)).stdout).toBe(`${ids[2]}\n${ids[1]}\n${ids[0]}\n`);
  });
});

describe('log --graph', () => {
  /**
   * root: c1 → c2 → pause p1 (paused), with child A from c1 (A: a1 → a2) and grandchild B from
   * a1 (B: no checkpoint yet), and child C from c2 (C: closed).
   */
  it('draws the lineage with two levels of checkout and a pause', async () => {
    await shared.openRuntime('tree');
    const checkpoint = async (runtimeId: string, name: string) => {
      await shared.client.writeFileBytes(runtimeId, 'state.txt', `${runtimeId}:${name}`);
      return (await shared.client.checkpoint({ runtime_id: runtimeId, name })).checkpoint_id;
    };
    const labels = new Map<string, string>();
    const label = (id: string, name: string) => (labels.set(id, name), id);
    const c1 = label(await checkpoint('tree', 'c1'), 'C1');
    const a = label((await shared.client.checkout({ checkpoint_id: c1 })).runtime.runtime_id, 'A');
    const a1 = label(await checkpoint(a, 'a1'), 'A1');
    const b = label((await shared.client.checkout({ checkpoint_id: a1 })).runtime.runtime_id, 'B');
    label(await checkpoint(a, 'a2'), 'A2');
    const c2 = label(await checkpoint('tree', 'c2'), 'C2');
    const c = label((await shared.client.checkout({ checkpoint_id: c2 })).runtime.runtime_id, 'C');
    await shared.client.close({ runtime_id: c, keep_snapshots: true });
    label((await shared.client.pause({ runtime_id: 'tree', name: 'p1' })).checkpoint_id, 'P1');

    const graph = await runCli(['log', 'tree', '--graph'], shared.at);
    expect(graph.code).toBe(0);
    expect(graph.stderr).toBe('');
    const normalized = graph.stdout
      .trimEnd()
      .split('\n')
      .map((line) =>
        line
          .replace(/rtcp_[0-9a-f]{32}|tree:checkout:[0-9a-f]{32}/g, (id) => labels.get(id) ?? id)
          .replace(/(\d+ (second|minute)s? ago|now)/g, 'T'),
      );
    expect(normalized).toEqual([
      '@ tree  paused  opened T',
      '* P1  pause "p1"  T',
      '| @ C  closed  opened T',
      '|/',
      '* C2  checkpoint "c2"  T',
      '| @ A  idle  opened T',
      '| * A2  checkpoint "a2"  T',
      '| | @ B  idle  opened T',
      '| |/',
      '| * A1  checkpoint "a1"  T',
      '|/',
      '* C1  checkpoint "c1"  T',
    ]);

    // A subtree starts at its own runtime.
    const sub = await runCli(['log', a, '--graph', '--quiet'], shared.at);
    expect(sub.stdout.trim().split('\n').sort()).toEqual([a, b].sort());

    const tree = await runCliJson<LineageTree>(['log', 'tree', '--graph'], shared.at);
    expect(tree.runtime.runtime.runtime_id).toBe('tree');
    expect(tree.checkpoints.map((checkpoint) => checkpoint.name)).toEqual(['p1', 'c2', 'c1']);
    expect(tree.children.map((child) => child.runtime.runtime.runtime_id)).toEqual([a, c]);
    expect(tree.children[0]!.children).toHaveLength(1);
  });
});
