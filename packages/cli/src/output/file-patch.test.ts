import { describe, expect, it } from 'vitest';
import { filePatch } from './file-patch';

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

describe('file patch', () => {
  it('prints a unified diff of a changed text file, with a/ and b/ names', () => {
    expect(filePatch('src/a.ts', bytes('one\ntwo\nthree\n'), bytes('one\n2\nthree\n'))).toBe(
      'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n',
    );
  });

  it('an added file is diffed against /dev/null', () => {
    expect(filePatch('new.md', null, bytes('hello\n'))).toBe('diff --git a/new.md b/new.md\n--- /dev/null\n+++ b/new.md\n@@ -0,0 +1,1 @@\n+hello\n');
  });

  it('binary content (a NUL byte, or invalid UTF-8) gets git\'s one line under its diff --git line', () => {
    expect(filePatch('x.bin', new Uint8Array([0, 1]), new Uint8Array([0, 2]))).toBe('diff --git a/x.bin b/x.bin\nBinary files a/x.bin and b/x.bin differ\n');
    expect(filePatch('y.bin', bytes('a'), new Uint8Array([0xff, 0xfe]))).toBe('diff --git a/y.bin b/y.bin\nBinary files a/y.bin and b/y.bin differ\n');
  });

  it("a path a runtime named with a control character is C-quoted in every header line, prefix and all, as git quotes it", () => {
    const hostile = 'x\u001b[2J\nforged';
    expect(filePatch(hostile, bytes('a\n'), bytes('b\n'))).toBe(
      'diff --git "a/x\\033[2J\\nforged" "b/x\\033[2J\\nforged"\n--- "a/x\\033[2J\\nforged"\n+++ "b/x\\033[2J\\nforged"\n@@ -1,1 +1,1 @@\n-a\n+b\n',
    );
    expect(filePatch(hostile, null, new Uint8Array([0]))).toBe('diff --git "a/x\\033[2J\\nforged" "b/x\\033[2J\\nforged"\nBinary files /dev/null and "b/x\\033[2J\\nforged" differ\n');
  });
});
