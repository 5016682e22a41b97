import { describe, expect, it } from 'vitest';
import { fileSignature, verifyFileSignature } from './file-signature.js';

describe('fileSignature', () => {
  it("matches the SDK's own known signature (E2B's 'static signing key comparison')", () => {
    expect(fileSignature('hello.txt', 'read', 'user', '0tQG31xiMp0IOQfaz9dcwi72L1CPo8e0')).toBe('v1_gUtH/s9YCJWgCizjfUxuWfhFE4QSydOWEIIvfLwDr6E');
  });

  it('a signature with an expiration verifies until that second has passed', () => {
    const expiration = 2_000_000_000;
    const url = new URL('http://emulator.invalid/files?path=a.txt');
    url.searchParams.set('signature', fileSignature('a.txt', 'write', '', 'token', expiration));
    url.searchParams.set('signature_expiration', String(expiration));
    expect(() => verifyFileSignature(url, 'POST', 'token', expiration * 1000)).not.toThrow();
    expect(() => verifyFileSignature(url, 'GET', 'token', expiration * 1000)).toThrow('invalid signature');
    expect(() => verifyFileSignature(url, 'POST', 'token', expiration * 1000 + 1000)).toThrow('signature is already expired');
  });
});
