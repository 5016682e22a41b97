import { readFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';

/** Whether an error says the path does not exist. */
export const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** The names in a directory; none when it does not exist. */
export async function namesIn(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/** A file's text; null when the file does not exist. */
export async function readTextIfPresent(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * A small JSON record's value (the layers store's: a few hundred bytes); null when the file does
 * not exist (one that does not parse throws). Read synchronously: one system call's worth of
 * work, where an asynchronous read is four trips through the thread pool, and a checkpoint reads
 * a record per layer of its chain.
 */
export async function readJsonIfPresent<T>(path: string): Promise<T | null> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  return JSON.parse(text) as T;
}

/** Removes a file; false when there was none. */
export async function removeFileIfPresent(path: string): Promise<boolean> {
  try {
    await rm(path);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}
