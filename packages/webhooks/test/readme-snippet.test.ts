import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { signWebhookBody } from '../src/index';

/** The README's verification snippet, run as a receiver would paste it. */
async function readmeVerifier(): Promise<(secret: string, rawBody: string, header: string, toleranceSeconds?: number) => boolean> {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const snippet = /```js\n([\s\S]*?verifyRuntimectlSignature[\s\S]*?)```/.exec(readme)![1]!;
  const file = join(mkdtempSync(join(tmpdir(), 'webhooks-readme-')), 'verify.mjs');
  writeFileSync(file, snippet);
  return ((await import(pathToFileURL(file).href)) as { verifyRuntimectlSignature: never }).verifyRuntimectlSignature;
}

describe('the README’s verification snippet', () => {
  it('accepts what the engine signs now, and refuses a changed body, another secret or a stale timestamp', async () => {
    const verify = await readmeVerifier();
    const secret = 'whsec_readme_0123456789abcdef';
    const body = '{"event_id":1,"type":"runtime.opened"}';
    const now = Math.floor(Date.now() / 1000);
    expect(verify(secret, body, signWebhookBody(secret, body, now))).toBe(true);
    expect(verify(secret, body.replace('1', '2'), signWebhookBody(secret, body, now))).toBe(false);
    expect(verify('another_secret_0123456789', body, signWebhookBody(secret, body, now))).toBe(false);
    expect(verify(secret, body, signWebhookBody(secret, body, now - 3_600))).toBe(false);
  });
});
