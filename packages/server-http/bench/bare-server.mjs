// The baseline: a bare fastify route answering a small JSON body, no logger, no hooks.
import Fastify from 'fastify';

const app = Fastify();
app.get('/bare', async () => ({ status: 'ok', version: '0.0.0-bench' }));
// For --diagnose: the same answer to a POST with a small JSON body (body parsing is part of every runtime operation).
app.post('/bare', async () => ({ status: 'ok', version: '0.0.0-bench' }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ url: address })}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
