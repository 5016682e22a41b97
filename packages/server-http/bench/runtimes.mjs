// What both benches do to the API server before loading it: open one runtime per connection,
// write to it and checkpoint it twice, so every later checkpoint takes the reuse path.
export const TOKEN = 'bench-token';

export async function call(baseUrl, path, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** One runtime per connection, written to and checkpointed twice (the second checkpoint must reuse the first's snapshot). */
export async function prepareRuntimes(apiUrl, count) {
  const ids = [];
  for (let index = 0; index < count; index += 1) {
    const runtimeId = `bench-${String(index).padStart(3, '0')}`;
    await call(apiUrl, '/api/v1/runtimes/open', { runtime_id: runtimeId, conversation_id: 'bench', sender_id: 'bench' });
    await call(apiUrl, '/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'seed.txt', content_base64: 'c2VlZA==' });
    const first = await call(apiUrl, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
    if (first.reused_backend_snapshot) throw new Error('the first checkpoint should have made a snapshot');
    const second = await call(apiUrl, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
    if (!second.reused_backend_snapshot) throw new Error('a clean runtime must reuse its snapshot');
    ids.push(runtimeId);
  }
  return ids;
}

/**
 * Makes the runtimes a server opened itself (minimal-work-server.mjs: `bench-000`…) clean the
 * way `prepareRuntimes` does: written to, then checkpointed twice.
 */
export async function cleanOpenedRuntimes(apiUrl, count) {
  const ids = Array.from({ length: count }, (_, index) => `bench-${String(index).padStart(3, '0')}`);
  for (const runtimeId of ids) {
    await call(apiUrl, '/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'seed.txt', content_base64: 'c2VlZA==' });
    await call(apiUrl, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
    const second = await call(apiUrl, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
    if (!second.reused_backend_snapshot) throw new Error('a clean runtime must reuse its snapshot');
  }
  return ids;
}

/** The request specs of the runtime operations measured, one body per runtime (connection i sends bodies[i]). */
export const operationSpecs = (apiUrl, runtimeIds) => {
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  return {
    checkpoint: {
      url: `${apiUrl}/api/v1/runtimes/checkpoint`,
      method: 'POST',
      headers,
      bodies: runtimeIds.map((runtimeId) => JSON.stringify({ runtime_id: runtimeId })),
    },
    exec: {
      url: `${apiUrl}/api/v1/runtimes/exec`,
      method: 'POST',
      headers,
      bodies: runtimeIds.map((runtimeId) => JSON.stringify({ runtime_id: runtimeId, command: 'echo hi' })),
    },
  };
};
