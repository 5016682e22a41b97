import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../support/chromium-path';
import { gotoConsole, startConsoleRig, type ConsoleRig } from '../support/console-rig';
import { signIn } from '../support/sign-in';
import { ADMIN_TOKEN } from '../support/start-runtimed';

describe.skipIf(!hasChromium)('signing in to the console', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
    await rig.daemon.client.open({ runtime_id: 'behind-the-form', conversation_id: 'conv-sign-in', sender_id: 'agent' });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('refuses a wrong key with the API’s unauthorized error and signs in with the right one', async () => {
    const wrongKey = 'not-the-key-0123456789abcdef';
    // What the API itself answers that key: the console must show this, not an error of its own.
    const refused = await fetch(`${rig.daemon.url}/api/v1/runtimes`, { headers: { authorization: `Bearer ${wrongKey}` } });
    expect(refused.status).toBe(401);
    const error = (await refused.json()) as { error: string; code: string };
    expect(error.code).toBe('unauthorized');

    const page = await rig.newPage();
    await gotoConsole(page, rig.daemon.consoleUrl);
    await expect.poll(() => page.getByLabel('API key', { exact: true }).getAttribute('type')).toBe('password');
    await page.getByLabel('API key', { exact: true }).fill(wrongKey);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'unauthorized' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain(error.error);
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);

    await signIn(page, ADMIN_TOKEN);
    await page.getByRole('heading', { name: 'Runtimes', exact: true }).waitFor();
    expect(await page.getByLabel('API key', { exact: true }).count()).toBe(0);
  });

  it('never puts the key in a URL, sends it as a bearer token, keeps the session over a reload, and signs out', async () => {
    const page = await rig.newPage();
    const requests: { url: string; authorization: string | undefined }[] = [];
    page.on('request', (request) => requests.push({ url: request.url(), authorization: request.headers().authorization }));
    const pageUrls: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) pageUrls.push(frame.url());
    });

    await gotoConsole(page, rig.daemon.consoleUrl);
    await page.getByLabel('API key', { exact: true }).waitFor();
    // Before the key is typed the console asks the daemon whether it wants one (without a key).
    const signedInFrom = requests.length;
    await signIn(page, ADMIN_TOKEN);
    await page.getByRole('table', { name: 'Runtimes', exact: true }).getByRole('link').first().waitFor();
    pageUrls.push(page.url());

    const apiRequests = requests.slice(signedInFrom).filter((request) => new URL(request.url).pathname.startsWith('/api/'));
    expect(apiRequests.length).toBeGreaterThan(0);
    // Every API call from then on carries the key as a header (EventSource could not: the stream must be read with fetch).
    for (const request of apiRequests) expect(request.authorization, request.url).toBe(`Bearer ${ADMIN_TOKEN}`);
    expect(apiRequests.some((request) => new URL(request.url).pathname === '/api/v1/events')).toBe(true);
    for (const { url } of requests) expect(decodeURIComponent(url)).not.toContain(ADMIN_TOKEN);
    for (const url of pageUrls) expect(decodeURIComponent(url)).not.toContain(ADMIN_TOKEN);

    // The tab's sessionStorage, not localStorage (nobody ticked "Remember on this device").
    const stored = await page.evaluate(() => ({
      session: Object.keys(sessionStorage).map((name) => sessionStorage.getItem(name)),
      local: Object.keys(localStorage).map((name) => localStorage.getItem(name)),
    }));
    expect(stored.session).toContain(ADMIN_TOKEN);
    expect(stored.local).not.toContain(ADMIN_TOKEN);

    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('table', { name: 'Runtimes', exact: true }).waitFor();
    expect(decodeURIComponent(page.url())).not.toContain(ADMIN_TOKEN);

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByLabel('API key', { exact: true }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    const left = await page.evaluate(() => [...Object.values(sessionStorage), ...Object.values(localStorage)]);
    expect(left).not.toContain(ADMIN_TOKEN);
    await page.reload();
    await page.getByLabel('API key', { exact: true }).waitFor();
  });

  it('remembers the key in localStorage only when asked, and signing out forgets it there too', async () => {
    const page = await rig.newPage();
    await gotoConsole(page, rig.daemon.consoleUrl);
    await signIn(page, ADMIN_TOKEN, { remember: true });
    expect(await page.evaluate(() => Object.values(localStorage))).toContain(ADMIN_TOKEN);
    expect(await page.evaluate(() => Object.values(sessionStorage))).not.toContain(ADMIN_TOKEN);

    // A new tab of the same browser profile is signed in already.
    const second = await page.context().newPage();
    await gotoConsole(second, rig.daemon.consoleUrl);
    await second.getByRole('navigation', { name: 'Main' }).waitFor();
    await second.close();

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByLabel('API key', { exact: true }).waitFor();
    expect(await page.evaluate(() => Object.values(localStorage))).not.toContain(ADMIN_TOKEN);
  });
});
