/**
 * envd's `process.Process/Connect` (`commands.connect`): re-attaches to a running process by
 * pid or tag. The stream starts with `start{pid}`, carries the output from then on and ends
 * with the process's `end` event. Unlike Start, its `Connect-Timeout-Ms` deadline only ends
 * the stream (`deadline_exceeded`): the process belongs to whoever started it and keeps running.
 * Kill or pause of the sandbox breaks the stream, as for Start.
 */
import { z } from 'zod';
import { headerValue, readBody } from '../http/http-io.js';
import type { RouteContext } from '../http/route-table.js';
import type { SandboxRecord } from '../sandbox/sandbox-store.js';
import { ConnectRpcError, decodeSingleEnvelope, parseConnectTimeoutMs, parseMessage } from './connect-framing.js';
import { ConnectStreamWriter } from './connect-stream.js';
import { endEvent, findProcess } from './process-events.js';

const connectRequest = z.looseObject({
  process: z.looseObject({ pid: z.number().int().optional(), tag: z.string().optional() }),
});

export async function connectProcess({ req, res }: RouteContext, sandbox: SandboxRecord): Promise<void> {
  const request = parseMessage(connectRequest, decodeSingleEnvelope(await readBody(req)));
  const process = findProcess(sandbox, request.process);
  const writer = new ConnectStreamWriter(res);
  writer.send({ event: { start: { pid: process.pid } } });
  const follower = process.follow((stream, chunk) => {
    writer.send({ event: { data: { [stream]: chunk.toString('base64') } } });
  });
  const deadlineMs = parseConnectTimeoutMs(req.headers['connect-timeout-ms']);
  const keepaliveSeconds = Number(headerValue(req, 'keepalive-ping-interval') ?? '0');
  const keepalive =
    keepaliveSeconds > 0 ? setInterval(() => writer.send({ event: { keepalive: {} } }), keepaliveSeconds * 1000) : undefined;
  let deadline: NodeJS.Timeout | undefined;
  const deadlinePassed = new Promise<'deadline'>((resolve) => {
    if (deadlineMs) deadline = setTimeout(() => resolve('deadline'), deadlineMs);
  });
  const stop = (): void => {
    follower.stop();
    clearTimeout(deadline);
    clearInterval(keepalive);
  };
  const unregister = sandbox.streams.add(() => {
    stop();
    writer.reset();
  });
  // A client that goes away stops following; the process runs on.
  res.once('close', stop);
  const outcome = await Promise.race([follower.ended, deadlinePassed]);
  unregister();
  stop();
  if (outcome === 'deadline') {
    writer.end(new ConnectRpcError('deadline_exceeded', `connecting to the process exceeded its timeout of ${deadlineMs} ms`));
    return;
  }
  writer.send({ event: { end: endEvent(outcome) } });
  writer.end();
}
