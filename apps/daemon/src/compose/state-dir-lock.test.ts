import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockStateDir, StateDirInUseError, STATE_DIR_LOCK_FILE } from './state-dir-lock';
import { temporaryDirectory } from '../../test/temporary-directory';

const freshDir = () => join(temporaryDirectory('state-dir-lock-'), 'state');

describe('lockStateDir', () => {
  it('refuses a second holder, naming the first one pid, until the first lets go', async () => {
    const stateDir = freshDir();
    const first = await lockStateDir(stateDir);
    const refusal = await lockStateDir(stateDir).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(StateDirInUseError);
    expect((refusal as StateDirInUseError).holderPid).toBe(process.pid);
    expect((refusal as Error).message).toBe(
      `the state directory ${stateDir} is in use by another runtimed (pid ${process.pid}); stop it, or give this daemon its own --state-dir`,
    );
    first.release();
    first.release();
    const second = await lockStateDir(stateDir);
    second.release();
  });

  it('creates the state directory 0700 and its lock file 0600, tightening a lock file left wider', async () => {
    const stateDir = freshDir();
    const lock = await lockStateDir(stateDir);
    expect(lock.path).toBe(join(stateDir, STATE_DIR_LOCK_FILE));
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    expect(statSync(lock.path).mode & 0o777).toBe(0o600);
    lock.release();
    chmodSync(lock.path, 0o644);
    (await lockStateDir(stateDir)).release();
    expect(statSync(lock.path).mode & 0o777).toBe(0o600);
  });
});
