// Setup calls against a running daemon (not measured): plain fetch, bearer auth.

/** `post(path, body)` against `baseUrl`, resolving with the JSON answer; non-200 throws. */
export function apiClient(baseUrl, token) {
  const headers = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  return {
    headers,
    async post(path, body) {
      const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
      return JSON.parse(text);
    },
    async get(path) {
      const response = await fetch(`${baseUrl}${path}`, { headers });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
      return JSON.parse(text);
    },
  };
}

export const base64 = (text) => Buffer.from(text).toString('base64');
