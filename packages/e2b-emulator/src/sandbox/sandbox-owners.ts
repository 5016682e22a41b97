/**
 * Owner and group names in `EntryInfo`. On this machine a sandbox has one identity: the
 * emulator's own uid, which is also what its commands run as (the namespace maps it to the
 * sandbox's root). Everything the sandbox's files API or its commands create belongs to that
 * identity, and what it stands for is E2B's default user, so it reads as `user` — as every file
 * a template's default user makes reads on E2B. Other ids keep envd's names: 0 is `root` (when
 * the emulator is not root itself), anything else its number.
 */
export function ownerNameOf(id: number, sandboxId: number | undefined): string {
  if (id === sandboxId) return 'user';
  if (id === 0) return 'root';
  return String(id);
}

/** The emulator's own uid and gid: the sandbox identity (undefined where Node has no ids). */
export const SANDBOX_IDENTITY = { uid: process.getuid?.(), gid: process.getgid?.() };
