import { spawn } from 'node:child_process';

/** One request the squatter received, as it arrived. */
export interface SquattedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface PortSquatter {
  pid: number;
  /** Every request it received so far. */
  requests(): SquattedRequest[];
  /** SIGKILL; resolves once it is gone. */
  stop(): Promise<void>;
}

/**
 * What a sandbox's background job does once the daemon has stopped: binds the daemon's port
 * and answers every request `200 {}`, recording what it was sent. Its own process (as a sandbox
 * job is), never the test's.
 */
const SQUATTER = `
const http = require('node:http');
const server = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    process.stdout.write(JSON.stringify({ method: request.method, url: request.url, headers: request.headers, body }) + '\\n');
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.on('error', (error) => { process.stderr.write(String(error)); process.exit(3); });
server.listen(Number(process.argv[1]), '127.0.0.1', () => process.stdout.write('listening\\n'));
`;

/** Binds 127.0.0.1:`port` in a process of its own; resolves once it listens. */
export function squatPort(port: number): Promise<PortSquatter> {
  const child = spawn(process.execPath, ['-e', SQUATTER, String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const received: SquattedRequest[] = [];
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const lines = stdout.split('\n');
      stdout = lines.pop()!;
      for (const line of lines) {
        if (line === 'listening') {
          resolve({
            pid: child.pid!,
            requests: () => [...received],
            stop: async () => {
              if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
              await exited;
            },
          });
        } else if (line !== '') received.push(JSON.parse(line) as SquattedRequest);
      }
    });
    void exited.then(() => reject(new Error(`the squatter exited before listening: ${stderr}`)));
  });
}
