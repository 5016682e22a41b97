import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { measureTreeBytes } from '../src/quota/workspace-usage';

// A command renaming thousands of entries while du walks makes du complain about each vanished
// one (and exit 1) before it prints the total of the rest. A stand-in du on the PATH does that
// deterministically: 200 KiB of complaints, then the total.
describe('workspace usage measurement', () => {
  let bin: string;
  let savedPath: string | undefined;
  beforeEach(() => {
    bin = mkdtempSync(join(tmpdir(), 'fake-du-'));
    savedPath = process.env.PATH;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    rmSync(bin, { recursive: true, force: true });
  });

  it('takes the total du prints even after unbounded complaints about vanished entries', async () => {
    const du = join(bin, 'du');
    writeFileSync(du, "#!/bin/sh\nyes 'du: cannot access x/stray-1/y: No such file or directory' | head -c 204800 >&2\nprintf '12\\t%s\\n' \"$2\"\nexit 1\n");
    chmodSync(du, 0o755);
    process.env.PATH = `${bin}:${savedPath}`;
    expect(await measureTreeBytes('/any/workspace')).toBe(12 * 1024);
  });

  it('walks again when du aborts mid-walk (GNU du 9.1 does when directories are renamed under it)', async () => {
    const du = join(bin, 'du');
    // Aborts on its first two runs, then prints the total.
    writeFileSync(du, `#!/bin/sh\nn=$(cat ${bin}/runs 2>/dev/null || echo 0); echo $((n+1)) > ${bin}/runs\n[ "$n" -lt 2 ] && kill -ABRT $$\nprintf '8\\t%s\\n' "$2"\n`);
    chmodSync(du, 0o755);
    process.env.PATH = `${bin}:${savedPath}`;
    expect(await measureTreeBytes('/any/workspace')).toBe(8 * 1024);
  });

  it('rejects when du prints no total three times', async () => {
    const du = join(bin, 'du');
    writeFileSync(du, '#!/bin/sh\necho "du: fts_read failed" >&2\nexit 1\n');
    chmodSync(du, 0o755);
    process.env.PATH = `${bin}:${savedPath}`;
    await expect(measureTreeBytes('/any/workspace')).rejects.toThrow(/without a total/);
  });
});
