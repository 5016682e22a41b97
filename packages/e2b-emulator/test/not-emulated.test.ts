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

  it('updateNetwork raises a "not emulated" error', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    expect(await messageOf(sandbox.updateNetwork({ denyOut: ['1.1.1.1'] }))).toMatch(NOT_EMULATED);
    await sandbox.kill();
  });

  it('envd\'s polling watcher (CreateWatcher, which the JS SDK never calls) answers unimplemented "not emulated"', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    // Answered before any sandbox check: the route itself is unknown.
    const response = await fetch(`${fixture.emulator.sandboxUrl}/filesystem.Filesystem/CreateWatcher`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'e2b-sandbox-id': sandbox.sandboxId },
      body: JSON.stringify({ path: '/home/user' }),
    });
    expect(response.status).toBe(501);
    expect(await response.json()).toMatchObject({ code: 'unimplemented', message: expect.stringMatching(NOT_EMULATED) });
    await sandbox.kill();
  });

  it('any other unknown control-plane route answers 501 with a code body, not 404', async () => {
    const response = await fetch(`${fixture.emulator.apiUrl}/volumes`, { headers: { 'x-api-key': 'k' } });
    expect(response.status).toBe(501);
    expect(await response.json()).toMatchObject({ code: 501, message: expect.stringMatching(NOT_EMULATED) });
  });
});
