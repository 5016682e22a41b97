import type { IncomingMessage, ServerResponse } from 'node:http';
import { REQUEST_ID_HEADER, requestIdOf } from '../request-id';
import { errorReply } from './error-reply';

/** The one status HTTP prescribes for an expectation the server cannot meet. */
const EXPECTATION_FAILED = 417;

/**
 * Node's `checkExpectation` handler: Node itself answers a request whose `Expect` is anything but
 * `100-continue`, before fastify sees it, with an empty 417. This gives that answer the contract's
 * error body (`invalid_request`, status 417 as HTTP requires) and a request id, and closes the
 * connection, since a body the client may already be sending would otherwise be read as the next
 * request.
 */
export function answerUnmetExpectation(request: IncomingMessage, response: ServerResponse): void {
  const expectation = String(request.headers.expect ?? '').slice(0, 64);
  const { body } = errorReply(
    'invalid_request',
    `unsupported Expect header ${JSON.stringify(expectation)}: this server only understands Expect: 100-continue`,
  );
  const text = JSON.stringify(body);
  response.writeHead(EXPECTATION_FAILED, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    [REQUEST_ID_HEADER]: requestIdOf(request),
    connection: 'close',
  });
  response.end(text);
}
