/**
 * envd's `process.Process` service: Start (server-streaming: start, data…, end, end-stream),
 * List, SendSignal, SendInput, CloseStdin and Update (a PTY's size). Commands really run (see
 * process-runner.ts); a Start with `pty` runs on a real pseudo-terminal, its output sent as
 * `data.pty`, its input taken from SendInput's `pty`.
 * As in envd, a process outlives a client that disconnects; the `Connect-Timeout-Ms`
 * deadline kills its whole process group and ends the stream with `deadline_exceeded`.
 */
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { EmulatorContext } from '../emulator-context.js';
import { headerValue, readBody } from '../http/http-io.js';
import type { RouteContext, RouteTable } from '../http/route-table.js';
import type { OutputStream } from '../sandbox/sandbox-processes.js';
import type { SandboxRecord } from '../sandbox/sandbox-store.js';
import { sandboxUserOfRequest } from '../sandbox/sandbox-users.js';
import {
  ConnectRpcError,
  decodeSingleEnvelope,
  decodeUnaryBody,
  parseConnectTimeoutMs,
  parseMessage,
  sendUnaryMessage,
} from './connect-framing.js';
import { ConnectStreamWriter } from './connect-stream.js';
import { envdStreamRoute, envdUnaryRoute } from './envd-route.js';
import { connectProcess } from './process-connect.js';
import { endEvent, findProcess } from './process-events.js';
import { startSandboxProcess } from './process-runner.js';

const ptySize = z.looseObject({ cols: z.number().int().min(1).max(65_535), rows: z.number().int().min(1).max(65_535) });
const startRequest = z.looseObject({
  process: z.looseObject({
    cmd: z.string().min(1),
    args: z.array(z.string()).nullish(),
    envs: z.record(z.string(), z.string()).nullish(),
    cwd: z.string().nullish(),
  }),
  pty: z.looseObject({ size: ptySize }).nullish(),
  tag: z.string().nullish(),
  stdin: z.boolean().nullish(),
});
const selector = z.looseObject({ pid: z.number().int().optional(), tag: z.string().optional() });
const signalRequest = z.looseObject({ process: selector, signal: z.union([z.string(), z.number()]) });
const inputRequest = z.looseObject({ process: selector, input: z.looseObject({ stdin: z.string().optional(), pty: z.string().optional() }) });
const closeStdinRequest = z.looseObject({ process: selector });
const updateRequest = z.looseObject({ process: selector, pty: z.looseObject({ size: ptySize }).nullish() });

export function addProcessRoutes(routes: RouteTable, context: EmulatorContext): void {
  routes.add('POST', '/process.Process/Start', envdStreamRoute(context, 'process', (route, sandbox) => start(context, route, sandbox)));
  routes.add('POST', '/process.Process/Connect', envdStreamRoute(context, 'process', (route, sandbox) => connectProcess(route, sandbox)));
  const unary = (method: string, implementation: (body: unknown, sandbox: SandboxRecord) => unknown): void => {
    routes.add(
      'POST',
      `/process.Process/${method}`,
      envdUnaryRoute(context, 'process', async ({ req, res }, sandbox) => {
        sendUnaryMessage(res, implementation(decodeUnaryBody(await readBody(req)), sandbox));
      }),
    );
  };
  unary('List', (_body, sandbox) => ({
    processes: sandbox.processes.list().map((process) => ({
      config: { cmd: process.cmd, args: process.args, envs: process.envs, ...(process.cwd ? { cwd: process.cwd } : {}) },
      pid: process.pid,
      ...(process.tag ? { tag: process.tag } : {}),
    })),
  }));
  unary('SendSignal', (body, sandbox) => {
    const request = parseMessage(signalRequest, body);
    findProcess(sandbox, request.process).signal(signalOf(request.signal));
    return {};
  });
  unary('SendInput', (body, sandbox) => {
    const request = parseMessage(inputRequest, body);
    // A terminal's input and a pipe's go the same way: to what the process reads.
    const written = findProcess(sandbox, request.process).writeStdin(Buffer.from(request.input.pty ?? request.input.stdin ?? '', 'base64'));
    if (!written) throw new ConnectRpcError('failed_precondition', 'the process stdin is not open');
    return {};
  });
  unary('CloseStdin', (body, sandbox) => {
    if (!findProcess(sandbox, parseMessage(closeStdinRequest, body).process).closeStdin()) {
      throw new ConnectRpcError('failed_precondition', 'the process stdin is not open');
    }
    return {};
  });
  unary('Update', (body, sandbox) => {
    const request = parseMessage(updateRequest, body);
    const process = findProcess(sandbox, request.process);
    if (request.pty) {
      if (!process.pty) throw new ConnectRpcError('failed_precondition', 'the process has no PTY');
      if (!process.resize(request.pty.size)) throw new ConnectRpcError('failed_precondition', 'the process has ended');
    }
    return {};
  });
}

async function start(context: EmulatorContext, { req, res }: RouteContext, sandbox: SandboxRecord): Promise<void> {
  const request = parseMessage(startRequest, decodeSingleEnvelope(await readBody(req)));
  const started = await startSandboxProcess(
    sandbox,
    context.isolation,
    {
      cmd: request.process.cmd,
      args: request.process.args ?? [],
      envs: request.process.envs ?? {},
      cwd: request.process.cwd ?? undefined,
      user: sandboxUserOfRequest(req),
    },
    // A terminal always takes input, as envd's PTYs do.
    { stdin: request.pty ? true : (request.stdin ?? false), tag: request.tag ?? undefined, pty: request.pty?.size },
  );
  const writer = new ConnectStreamWriter(res);
  const drop = context.knobs.takeStreamDrop();
  writer.send({ event: { start: { pid: started.pid } } });
  if (drop === 'reset') {
    writer.reset();
    // The process keeps running, as in envd; drain its output so it never blocks on a pipe.
    started.child.stdout?.resume();
    started.child.stderr?.resume();
    return;
  }
  let deadlineExceeded = false;
  const deadlineMs = parseConnectTimeoutMs(req.headers['connect-timeout-ms']);
  const deadline = deadlineMs
    ? setTimeout(() => {
        deadlineExceeded = true;
        started.signal('SIGKILL');
      }, deadlineMs)
    : undefined;
  const keepaliveSeconds = Number(headerValue(req, 'keepalive-ping-interval') ?? '0');
  const keepalive =
    keepaliveSeconds > 0 ? setInterval(() => writer.send({ event: { keepalive: {} } }), keepaliveSeconds * 1000) : undefined;
  const stopTimers = (): void => {
    clearTimeout(deadline);
    clearInterval(keepalive);
  };
  // Kill or pause breaks the stream with no `end` (the VM stopped under envd); output that
  // comes later (after a resume) is read and dropped, as for a client that went away.
  const unregister = sandbox.streams.add(() => {
    stopTimers();
    writer.reset();
  });
  if (started.pty) {
    forward(started.child.stdout, 'pty', writer);
    started.child.stderr?.resume();
  } else {
    forward(started.child.stdout, 'stdout', writer);
    forward(started.child.stderr, 'stderr', writer);
  }
  const exit = await started.exit;
  unregister();
  stopTimers();
  if (deadlineExceeded) {
    writer.end(new ConnectRpcError('deadline_exceeded', `the command exceeded its timeout of ${deadlineMs} ms`));
    return;
  }
  if (drop !== 'omit-end') writer.send({ event: { end: endEvent(exit) } });
  writer.end();
}

function forward(stream: Readable | null, name: OutputStream, writer: ConnectStreamWriter): void {
  stream?.on('data', (chunk: Buffer) => {
    if (!writer.send({ event: { data: { [name]: chunk.toString('base64') } } })) {
      stream.pause();
      writer.onDrain(() => stream.resume());
    }
  });
}

/** proto3 JSON enum `Signal`: names (`SIGNAL_SIGKILL`) or numbers (9, 15). */
function signalOf(value: string | number): NodeJS.Signals {
  if (value === 'SIGNAL_SIGKILL' || value === 9) return 'SIGKILL';
  if (value === 'SIGNAL_SIGTERM' || value === 15) return 'SIGTERM';
  throw new ConnectRpcError('invalid_argument', `unsupported signal ${String(value)}`);
}
