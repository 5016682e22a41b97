import { describe, expect, it } from 'vitest';
import { runCli, runCliJson } from './cli-process';
import { useSharedRuntimed } from './shared-runtimed';

// A daemon on its defaults: the fs provider runs commands in a real shell, so a test can make
// symlinks, FIFOs, and turn a file into a directory as an agent would. Its copy store, which
// leaves special files out of a snapshot and lists them (layers keep them: nothing to list).
const shared = useSharedRuntimed([], { RUNTIMECTL_PROVIDERS_FS_SNAPSHOT_STORE: 'copy' });

async function sh(runtimeId: string, line: string): Promise<void> {
  const result = await shared.client.exec({ runtime_id: runtimeId, command: line });
  if (result.exit_code !== 0) throw new Error(`${line} exited ${result.exit_code}: ${Buffer.from(result.stderr_base64, 'base64').toString()}`);
}

describe.concurrent('diff --patch', () => {
  it('shows symlinks with their targets and a file that became a directory as a deletion and an addition', async () => {
    await shared.openRuntime('links');
    await sh('links', 'printf a > a.txt && ln -s a.txt link && printf was > x && ln -s gone old-link');
    const before = await shared.client.checkpoint({ runtime_id: 'links' });
    await sh('links', 'ln -sfn x link && rm x && mkdir x && printf now > x/inside && rm old-link && ln -s a.txt new-link');
    const after = await shared.client.checkpoint({ runtime_id: 'links' });
    const patch = await runCli(['diff', before.checkpoint_id, after.checkpoint_id, '--patch'], shared.at);
    expect(patch).toMatchObject({ code: 0, stderr: '' });
    expect(patch.stdout).toBe(
      'diff --git a/link b/link\n--- a/link\n+++ b/link\n@@ -1,1 +1,1 @@\n-a.txt\n\\ No newline at end of file\n+x\n\\ No newline at end of file\n' +
        'diff --git a/new-link b/new-link\nnew file mode 120000\n--- /dev/null\n+++ b/new-link\n@@ -0,0 +1,1 @@\n+a.txt\n\\ No newline at end of file\n' +
        'diff --git a/old-link b/old-link\ndeleted file mode 120000\n--- a/old-link\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-gone\n\\ No newline at end of file\n' +
        'diff --git a/x b/x\ndeleted file mode 100644\n--- a/x\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-was\n\\ No newline at end of file\n' +
        'directory x: added (mode 0755)\n' +
        'diff --git a/x/inside b/x/inside\nnew file mode 100644\n--- /dev/null\n+++ b/x/inside\n@@ -0,0 +1,1 @@\n+now\n\\ No newline at end of file\n',
    );
  });

  it('on a provider that keeps no snapshot, says why the contents cannot be shown and what still works, in plain words', async () => {
    await shared.openRuntime('plain', 'local');
    const before = await shared.client.checkpoint({ runtime_id: 'plain' });
    await sh('plain', 'printf x > x');
    const after = await shared.client.checkpoint({ runtime_id: 'plain' });
    const patch = await runCli(['diff', before.checkpoint_id, after.checkpoint_id, '--patch'], shared.at);
    expect(patch.code).toBe(1);
    expect(patch.stderr).not.toContain('read_snapshot_file');
    expect(patch.stderr).toBe(
      // x is new: only the later checkpoint's file is read.
      `runtimectl: --patch shows contents read from the checkpoints' snapshots, and checkpoint ${after.checkpoint_id} has none: provider local takes no snapshots. ` +
        `\`runtimectl diff ${before.checkpoint_id} ${after.checkpoint_id} --name-status\` lists what changed; for contents, open runtimes on a provider with snapshots (fs): see \`runtimectl providers\`.\n`,
    );
  });
});

describe.concurrent('checkpoint and pause on fs', () => {
  it('checkpoint says which special files its snapshot left out', async () => {
    await shared.openRuntime('fifo');
    await sh('fifo', 'mkfifo pipe && printf x > kept.txt');
    const checkpoint = await runCli(['checkpoint', 'fifo'], shared.at);
    expect(checkpoint).toMatchObject({ code: 0, stderr: '' });
    expect(checkpoint.stdout).toMatch(/^checkpoint rtcp_[0-9a-f]{32} of fifo\nnot in the snapshot: 1 special file \(special files are not kept\): pipe \(fifo\)\n$/);
    const quiet = await runCli(['checkpoint', 'fifo', '--quiet'], shared.at);
    expect(quiet.stdout).toMatch(/^rtcp_[0-9a-f]{32}\n$/);
  });

  it('pause says when it reused the clean snapshot, and --json carries reused_backend_snapshot', async () => {
    await shared.openRuntime('reuse');
    await shared.client.checkpoint({ runtime_id: 'reuse' });
    const paused = await runCli(['pause', 'reuse'], shared.at);
    expect(paused).toMatchObject({ code: 0, stderr: '' });
    expect(paused.stdout).toMatch(/^paused reuse at rtcp_[0-9a-f]{32} \(unchanged: reused the previous snapshot\)\n$/);
    await shared.client.resume({ runtime_id: 'reuse' });
    await sh('reuse', 'printf y > y');
    const json = await runCliJson<{ reused_backend_snapshot: boolean }>(['pause', 'reuse'], shared.at);
    expect(json.reused_backend_snapshot).toBe(false);
  });
});
