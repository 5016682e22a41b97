/** Pre-signed `/files` URLs (`downloadUrl` / `uploadUrl`): used with no header, checked as envd checks them. */
import { Sandbox } from 'e2b';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';

const fixture = useEmulator();
let sandbox: Sandbox;
let other: Sandbox;

beforeAll(async () => {
  [sandbox, other] = await Promise.all([Sandbox.create({ ...fixture.sdk, secure: true }), Sandbox.create(fixture.sdk)]);
});
afterAll(async () => {
  await Promise.all([sandbox.kill(), other.kill()]);
});

const uploadForm = (content: string): FormData => {
  const form = new FormData();
  form.append('file', content);
  return form;
};

describe('signed file URLs', () => {
  it('a download URL reads the file of the sandbox that signed it, with no header', async () => {
    await sandbox.files.write('hello.txt', 'hello world');
    await other.files.write('hello.txt', 'another sandbox');
    const response = await fetch(await sandbox.downloadUrl('hello.txt', { useSignatureExpiration: 10_000 }));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('hello world');
  });

  it('an upload URL writes a plain form field as the file; as root it lands in /root', async () => {
    const response = await fetch(await sandbox.uploadUrl('up.txt'), { method: 'POST', body: uploadForm('uploaded') });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([{ name: 'up.txt', path: '/home/user/up.txt', type: 'file' }]);
    expect(await sandbox.files.read('/home/user/up.txt')).toBe('uploaded');
    const asRoot = await fetch(await sandbox.uploadUrl('up.txt', { user: 'root' }), { method: 'POST', body: uploadForm('r') });
    expect(await asRoot.json()).toEqual([{ name: 'up.txt', path: '/root/up.txt', type: 'file' }]);
  });

  it('an expired signature answers 401 "signature is already expired"', async () => {
    const response = await fetch(await sandbox.downloadUrl('hello.txt', { useSignatureExpiration: -10_000 }));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 401, message: 'signature is already expired' });
  });

  it('a URL signed for reading cannot write, and a tampered path is refused', async () => {
    const readUrl = await sandbox.downloadUrl('hello.txt');
    const write = await fetch(readUrl, { method: 'POST', body: uploadForm('x') });
    expect(write.status).toBe(401);
    const tampered = new URL(readUrl);
    tampered.searchParams.set('path', 'other.txt');
    const read = await fetch(tampered);
    expect(read.status).toBe(401);
    expect(await read.json()).toEqual({ code: 401, message: 'invalid signature' });
  });
});
