import { execFile } from 'node:child_process';

/**
 * Bytes a directory tree occupies on disk (allocated blocks, hard links once, symbolic links
 * not followed), measured by `du -sk` in a child process: the C walk is ~10× faster than one
 * from Node over thousands of files and keeps libuv's four thread-pool threads free for
 * other runtimes' file calls. Entries that vanish or cannot be read while du walks are skipped
 * (du then exits 1 but still prints the total of the rest). Rejects only when du cannot run.
 */
export function measureTreeBytes(root: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile('du', ['-sk', root], { encoding: 'utf8', maxBuffer: 64 * 1024 }, (error, stdout) => {
      const kib = /^(\d+)\s/.exec(stdout)?.[1];
      if (kib === undefined) {
        reject(error ?? new Error(`du printed no total: ${stdout.slice(0, 200)}`));
        return;
      }
      resolve(Number(kib) * 1024);
    });
  });
}
