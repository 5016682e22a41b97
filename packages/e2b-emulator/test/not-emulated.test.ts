/**
 * What the emulator does not emulate answers 501 with E2B's error body, so the real SDK raises an
 * error that says "not emulated" instead of reading a missing route as "no such thing" (a 404
 * made `Template.exists('base')` answer false).
 */
import { Sandbox, Template } from 'e2b';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';

const fixture = useEmulator();

const NOT_EMULATED = /not emulated/;
const messageOf = (work: Promise<unknown>) =>
  work.then(
    () => 'resolved',
    (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
  );

describe('what the emulator does not emulate, through the real SDK', () => {
  it('Template.exists raises a "not emulated" error rather than answering false', async () => {
    expect(await messageOf(Template.exists('base', fixture.sdk))).toMatch(NOT_EMULATED);
  });

  it('template builds raise a "not emulated" error', async () => {
    expect(await messageOf(Template.getBuildStatus({ templateId: 'base', buildId: 'b1' }, fixture.sdk))).toMatch(NOT_EMULATED);
  });

  it('getMetrics and fork raise a "not emulated" error', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    expect(await messageOf(sandbox.getMetrics())).toMatch(NOT_EMULATED);
    expect(await messageOf(Sandbox.fork(sandbox.sandboxId, fixture.sdk))).toMatch(NOT_EMULATED);
    await sandbox.kill();
  });

  it('commands.connect and files.watchDir raise a "not emulated" error', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    const handle = await sandbox.commands.run('sleep 5', { background: true });
    expect(await messageOf(sandbox.commands.connect(handle.pid))).toMatch(NOT_EMULATED);
    expect(await messageOf(sandbox.files.watchDir('/home/user', () => {}))).toMatch(NOT_EMULATED);
    await sandbox.kill();
  });

  it('signed file URLs answer 501 with a "not emulated" message', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await sandbox.files.write('/home/user/signed.txt', 'x');
    for (const url of [await sandbox.downloadUrl('/home/user/signed.txt'), await sandbox.uploadUrl('/home/user/signed.txt')]) {
      const response = await fetch(url);
      expect(response.status).toBe(501);
      expect(await response.json()).toMatchObject({ code: 501, message: expect.stringMatching(NOT_EMULATED) });
    }
    await sandbox.kill();
  });

  it('any other unknown control-plane route answers 501 with a code body, not 404', async () => {
    const response = await fetch(`${fixture.emulator.apiUrl}/volumes`, { headers: { 'x-api-key': 'k' } });
    expect(response.status).toBe(501);
    expect(await response.json()).toMatchObject({ code: 501, message: expect.stringMatching(NOT_EMULATED) });
  });
});
