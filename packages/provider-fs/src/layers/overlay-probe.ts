import { lstat, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mountOverlay, unmount } from './overlay-mount';

/** Whether this daemon can keep workspaces as overlay layers, and if not, why (named on the start line). */
export type OverlaySupport = { available: true } | { available: false; reason: string };

/**
 * Probes overlayfs for real, once, under `scratch` (a directory on the snapshot store's file
 * system, where layers will live): Linux, root (mounting overlayfs outside a user namespace of
 * one's own needs CAP_SYS_ADMIN), the kernel's `overlay` file system, and a mount of two lower
 * layers under an upper one in which a write lands in the upper directory and a deletion leaves a
 * whiteout. Anything short of that is a reason to keep the copy mode.
 */
export async function probeOverlay(scratch: string): Promise<OverlaySupport> {
  if (process.platform !== 'linux') return { available: false, reason: `overlayfs needs Linux (this is ${process.platform})` };
  if (process.getuid?.() !== 0) return { available: false, reason: 'mounting overlayfs needs root' };
  const filesystems = await readFile('/proc/filesystems', 'utf8').catch(() => '');
  if (!/\boverlay\b/.test(filesystems)) return { available: false, reason: 'the kernel has no overlay file system' };
  await mkdir(scratch, { recursive: true, mode: 0o700 });
  const dir = await mkdtemp(join(scratch, '.overlay-probe-'));
  const merged = join(dir, 'merged');
  try {
    for (const name of ['lower1', 'lower2', 'upper', 'work', 'merged']) await mkdir(join(dir, name));
    await writeFile(join(dir, 'lower2', 'deleted'), 'lower');
    await mountOverlay({ cwd: dir, lowers: ['lower1', 'lower2'], upper: 'upper', work: 'work', target: merged });
    try {
      await writeFile(join(merged, 'written'), 'upper');
      await rm(join(merged, 'deleted'));
    } finally {
      await unmount(merged);
    }
    const landed = (await readFile(join(dir, 'upper', 'written'), 'utf8').catch(() => null)) === 'upper';
    if (!landed) return { available: false, reason: 'a write through an overlay mount did not reach its upper layer' };
    const whiteout = await lstat(join(dir, 'upper', 'deleted')).catch(() => null);
    if (!whiteout?.isCharacterDevice() || whiteout.rdev !== 0) return { available: false, reason: 'a deletion through an overlay mount left no whiteout' };
    return { available: true };
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  } finally {
    await unmount(merged).catch(() => undefined);
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
