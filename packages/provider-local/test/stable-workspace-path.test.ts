import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HolderFile, NamespaceSandbox } from '@runtimectl/namespace-sandbox';
import { createLocalProvider } from '../src/index';
import { createBackend, localProvider, text, useTemporaryDirectories, utf8 } from './local-fixture';

const exec = { maxOutputBytes: 256 * 1024, timeoutMs: 20_000 };

// Finding 6 of issue 31: commands saw the workspace at its host path (…/workspaces/bkd_<id>).
describe('the workspace path commands see', () => {
  const temporary = useTemporaryDirectories();

  it('is /home/user/workspace by default: pwd, HOME and workspaceRoot agree, and the file API takes absolute paths under it', async () => {
    const { provider } = await localProvider(temporary);
    const { backend } = await createBackend(provider);
    expect(backend.workspaceRoot).toBe('/home/user/workspace');
    await backend.writeBytes('/home/user/workspace/sub/a.txt', utf8('absolute'));
    const result = await backend.exec({ ...exec, command: 'pwd; echo "$HOME"; cat /home/user/workspace/sub/a.txt; cd sub && pwd', cwd: '.' });
    expect(text(result.stdout)).toBe('/home/user/workspace\n/home/user/workspace\nabsolute/home/user/workspace/sub\n');
  });

  it('is configurable', async () => {
    const { provider } = await localProvider(temporary, { workspacePath: '/workspace' });
    const { backend } = await createBackend(provider);
    expect(text((await backend.exec({ ...exec, command: 'pwd' })).stdout)).toBe('/workspace\n');
  });

  it('stays the same in a new sandbox of the same workspace (a restarted daemon), so recorded paths keep working', async () => {
    const { provider, root } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    await backend.exec({ ...exec, command: 'echo "echo $PWD" > where.sh' });
    // The old sandbox gone (a reboot), a restarted daemon builds a new one for the workspace.
    const record = await new HolderFile(join(root, '.ns', `${request.backendId}.json`)).read();
    expect(await NamespaceSandbox.kill(record!, 5_000)).toBe(true);
    const restarted = createLocalProvider({ root });
    const attached = await restarted.attach(request);
    expect(text((await attached.exec({ ...exec, command: 'sh where.sh' })).stdout)).toBe('/home/user/workspace\n');
  });

  it('shows no host path or backend id in pwd, mount points, the cgroup file or a failing command\'s error', async () => {
    const { provider, root } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    const result = await backend.exec({ ...exec, command: "pwd; awk '{ print $5 }' /proc/self/mountinfo; cat /proc/self/cgroup; cd /nowhere; ls missing" });
    const seen = text(result.stdout) + text(result.stderr);
    expect(seen).toContain('/home/user/workspace');
    expect(seen).not.toContain(root);
    expect(seen).not.toContain(request.backendId);
  });
});
