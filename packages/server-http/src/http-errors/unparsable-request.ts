import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { REQUEST_ID_HEADER } from '../request-id';
import { errorReply } from './error-reply';

/**
 * fastify's `clientErrorHandler`: answers a request Node could not parse at all (headers over
 * Node's limit, malformed HTTP, headers not received in time) with the contract's error body,
 * `invalid_request`, instead of fastify's own `{error, message, statusCode}` shape, then closes
 * the connection. There is no request to take an id from, so the answer gets a fresh one.
 */
export function answerUnparsableRequest(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const message =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'the request headers are larger than the server accepts'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'the request was not received in time'
        : 'malformed HTTP request';
  const { status, body } = errorReply('invalid_request', message);
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} Bad Request\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\n` +
        `${REQUEST_ID_HEADER}: ${randomUUID()}\r\nconnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}
