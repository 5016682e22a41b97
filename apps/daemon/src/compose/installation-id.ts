import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A stable id for this installation, kept in the state directory. Provider resources are
 * labelled with it, so reconciliation can tell its own sandboxes from anyone else's.
 */
export function loadInstallationId(stateDir: string): string {
  const file = join(stateDir, 'installation-id');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (/^inst_[0-9a-f]{32}$/.test(existing)) return existing;
  } catch {
    // First start: create it below.
  }
  mkdirSync(stateDir, { recursive: true });
  const id = `inst_${randomBytes(16).toString('hex')}`;
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}
