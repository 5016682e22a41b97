import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `<prefix>_<32 hex>` kept in `<stateDir>/<fileName>`: read when it holds one, else made at
 * random and written (mode 0600, the directory 0700 when it is new), so every start of this
 * daemon gets the same id.
 */
export function loadPersistedId(stateDir: string, fileName: string, prefix: string): string {
  const file = join(stateDir, fileName);
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (new RegExp(`^${prefix}_[0-9a-f]{32}$`).test(existing)) return existing;
  } catch {
    // First start: create it below.
  }
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const id = `${prefix}_${randomBytes(16).toString('hex')}`;
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}
