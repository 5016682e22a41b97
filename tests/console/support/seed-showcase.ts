import type { RuntimectlClient } from '@runtimectl/client';

/** What `seedShowcase` made, for the views that show it. */
export interface Showcase {
  /** A runtime with a small tree: scaffold → add routes (pinned) → tests pass, and a checkout branch from scaffold. */
  root: string;
  branch: string;
  scaffold: string;
  routes: string;
  tests: string;
  /** A modified source file between `scaffold` and `routes`. */
  changedPath: string;
  /** A file in a subdirectory of `routes`: its path, its directory and its name. */
  nestedPath: string;
  nestedDirectory: string;
  nestedFile: string;
}

const INDEX_V1 = `import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 8080);
createServer((_request, response) => response.end('ok')).listen(port);
`;

const INDEX_V2 = `import { createServer } from 'node:http';
import { route } from './routes/route.js';

const port = Number(process.env.PORT ?? 8080);
createServer((request, response) => route(request, response)).listen(port);
console.log(\`listening on \${port}\`);
`;

const ROUTE = `import type { IncomingMessage, ServerResponse } from 'node:http';

export function route(request: IncomingMessage, response: ServerResponse): void {
  if (request.url === '/health') return void response.end('ok');
  response.statusCode = 404;
  response.end('not found');
}
`;

/** A console worth looking at (and checking for accessibility): a few runtimes in several states, one with a tree. */
export async function seedShowcase(client: RuntimectlClient): Promise<Showcase> {
  const root = 'web-agent';
  const write = (path: string, text: string) => client.writeFileBytes(root, path, text);
  await client.open({ runtime_id: root, conversation_id: 'conv-7f2a', sender_id: 'planner' });
  await write('package.json', '{ "name": "web-agent-demo", "type": "module" }\n');
  await write('src/index.ts', INDEX_V1);
  await write('README.md', '# web-agent demo\n');
  const scaffold = (await client.checkpoint({ runtime_id: root, name: 'scaffold' })).checkpoint_id;
  await write('src/index.ts', INDEX_V2);
  await write('src/routes/route.ts', ROUTE);
  const routes = (await client.checkpoint({ runtime_id: root, name: 'add routes' })).checkpoint_id;
  await client.pinCheckpoint({ checkpoint_id: routes });
  await write('test/route.test.ts', "import { route } from '../src/routes/route.js';\n");
  const tests = (await client.checkpoint({ runtime_id: root, name: 'tests pass' })).checkpoint_id;
  const branch = (await client.checkout({ checkpoint_id: scaffold, sender_id: 'explorer' })).runtime.runtime_id;

  await client.open({ runtime_id: 'data-pipeline', conversation_id: 'conv-91c0', sender_id: 'ingest', provider: 'local' });
  await client.open({ runtime_id: 'docs-writer', conversation_id: 'conv-91c0', sender_id: 'writer' });
  await client.writeFileBytes('docs-writer', 'draft.md', '# Draft\n');
  await client.pause({ runtime_id: 'docs-writer' });
  await client.open({ runtime_id: 'one-off-eval', conversation_id: 'conv-3b11', sender_id: 'eval' });
  await client.close({ runtime_id: 'one-off-eval' });

  return { root, branch, scaffold, routes, tests, changedPath: 'src/index.ts', nestedPath: 'src/routes/route.ts', nestedDirectory: 'src/routes', nestedFile: 'route.ts' };
}
