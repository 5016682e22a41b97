import { isAbsolute, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_INDEX_FILE, consoleAssetsDirectory } from './index';

describe('consoleAssetsDirectory', () => {
  it('is an absolute path to the app directory beside the module', () => {
    const directory = consoleAssetsDirectory();
    expect(isAbsolute(directory)).toBe(true);
    expect(directory.endsWith(`${sep}app`)).toBe(true);
  });

  it('names index.html as the file to serve', () => {
    expect(CONSOLE_INDEX_FILE).toBe('index.html');
  });
});
