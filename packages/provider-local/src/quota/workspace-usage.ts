import { spawn } from 'node:child_process';

/** du prints one line; more than this is not a total. */
const MAX_STDOUT_BYTES = 4096;

/**
 * Bytes a directory tree occupies on disk (allocated blocks, hard links once, symbolic links
 * not followed), measured by `du -sk` in a child process: the C walk is ~10× faster than one
 * from Node over thousands of files and keeps libuv's four thread-pool threads free for
 * other runtimes' file calls. Entries that vanish or cannot be read while du walks are skipped
 * (du then exits 1 but still prints the total of the rest); its complaints about them go to
 * /dev/null, since a command renaming thousands of entries meanwhile makes them unbounded.
 * Rejects only when du cannot run or prints no total.
 */
export function measureTreeBytes(root: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const du = spawn('du', ['-sk', root], { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    du.stdout.setEncoding('utf8');
    du.stdout.on('data', (chunk: string) => {
      if (stdout.length < MAX_STDOUT_BYTES) stdout += chunk;
    });
    du.on('error', reject);
    du.on('close', (code) => {
      const kib = /^(\d+)\s/.exec(stdout)?.[1];
      if (kib === undefined) reject(new Error(`du exited with ${code} and printed no total`));
      else resolve(Number(kib) * 1024);
    });
  });
}
