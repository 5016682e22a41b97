import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShapeProblem } from '../support/error-shape';
import { writeFigures } from '../support/figures';
import { Api } from '../support/http';
import { startRuntimed, type RuntimedProcess } from '../support/processes';
import { replyOf, sendOversized, type RawOutcome } from '../support/raw-http';

// Bodies over the daemon's limit (1 MiB here) are refused with 413 payload_too_large as soon as
// the limit is known to be passed: from the declared Content-Length before any body byte is
// read, or after the limit when the body is streamed chunked. The client keeps writing until the
// answer arrives; how much it had written by then shows the daemon did not wait for the rest.
const LIMIT_BYTES = 1024 * 1024;
const TOKEN = 'oversized-bodies-token-0123456789abcdef';
const MiB = 1024 * 1024;

let daemon: RuntimedProcess;
const figures: Record<string, unknown> = { limitBytes: LIMIT_BYTES };

beforeAll(async () => {
  daemon = await startRuntimed({
    args: ['--provider', 'memory'],
    env: { RUNTIMECTL_HTTP_BODY_LIMIT_BYTES: String(LIMIT_BYTES), RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'OVERSIZED_TOKEN', OVERSIZED_TOKEN: TOKEN },
    secrets: [TOKEN],
  });
});

afterAll(async () => {
  writeFigures('oversized-bodies', figures);
  // A daemon that crashed during the file would not exit 0 on SIGTERM.
  if (daemon) expect(await daemon.stop(), 'runtimed exit code').toBe(0);
});

function expectPayloadTooLarge(outcome: RawOutcome): void {
  const reply = replyOf(outcome);
  expect(reply.status, outcome.response.slice(0, 300)).toBe(413);
  expect(errorShapeProblem(reply)).toBeUndefined();
  expect((reply.json as { code: string }).code).toBe('payload_too_large');
}

describe('oversized bodies', () => {
  it('a declared 1 GiB body is refused with 413 before the body is read', async () => {
    const rssBefore = daemon.rssBytes();
    const outcome = await sendOversized(daemon.url, '/api/v1/runtimes/open', { declaredBytes: 1024 * MiB, maxSendBytes: 256 * MiB, token: TOKEN });
    expectPayloadTooLarge(outcome);
    figures.declaredOneGiB = { bytesSentBeforeAnswer: outcome.bytesSent, rssGrowthBytes: daemon.rssBytes() - rssBefore };
    expect(outcome.bytesSent, 'bytes written before the 413 arrived').toBeLessThan(32 * MiB);
  });

  it('a chunked body with no declared length is cut off once it passes the limit', async () => {
    const rssBefore = daemon.rssBytes();
    const outcome = await sendOversized(daemon.url, '/api/v1/runtimes/write-file', { chunked: true, maxSendBytes: 256 * MiB, token: TOKEN });
    expectPayloadTooLarge(outcome);
    figures.chunked = { bytesSentBeforeAnswer: outcome.bytesSent, rssGrowthBytes: daemon.rssBytes() - rssBefore };
    expect(outcome.bytesSent, 'bytes written before the 413 arrived').toBeLessThan(64 * MiB);
  });

  it('ten oversized uploads at once are all refused and the daemon\'s memory stays bounded', async () => {
    const rssBefore = daemon.rssBytes();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        sendOversized(daemon.url, '/api/v1/runtimes/exec', index % 2 === 0 ? { chunked: true, maxSendBytes: 128 * MiB, token: TOKEN } : { declaredBytes: 512 * MiB, maxSendBytes: 128 * MiB, token: TOKEN }),
      ),
    );
    for (const outcome of outcomes) expectPayloadTooLarge(outcome);
    const growth = daemon.rssBytes() - rssBefore;
    figures.concurrent = { uploads: 10, bytesSent: outcomes.map((outcome) => outcome.bytesSent), rssGrowthBytes: growth };
    expect(growth, 'RSS growth while refusing 10 oversized uploads').toBeLessThan(128 * MiB);
    expect(daemon.alive()).toBe(true);
  });

  it('without a token an oversized request is refused with 401 before its body is read', async () => {
    const outcome = await sendOversized(daemon.url, '/api/v1/runtimes/open', { declaredBytes: 1024 * MiB, maxSendBytes: 256 * MiB });
    const reply = replyOf(outcome);
    expect(reply.status).toBe(401);
    expect(errorShapeProblem(reply)).toBeUndefined();
    expect(outcome.bytesSent).toBeLessThan(32 * MiB);
  });

  it('a body just under the limit is still accepted: the limit is the configured one', async () => {
    const api = new Api(daemon.url, TOKEN);
    const opened = await api.ok<{ runtime: { runtime_id: string } }>('/api/v1/runtimes/open', { conversation_id: 'c', sender_id: 's' });
    // 720 KiB of file: 960 KiB once base64-encoded, inside the 1 MiB limit with the JSON around it.
    const content = Buffer.alloc(720 * 1024, 7).toString('base64');
    const reply = await api.post('/api/v1/runtimes/write-file', { runtime_id: opened.runtime.runtime_id, path: 'big.bin', content_base64: content });
    expect(reply.status, reply.text.slice(0, 200)).toBe(200);
  });
});
