// A measured request against a running daemon: node:http on a given keep-alive agent (fetch's
// pool would add its own queueing to the latency), resolving with the status and the JSON answer.
import { request as httpRequest } from 'node:http';

/** POST `body` as JSON to `url` + `path` through `agent`; resolves `{ status, json }`. */
export function postJson(agent, url, path, body) {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode, json: JSON.parse(text) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}
