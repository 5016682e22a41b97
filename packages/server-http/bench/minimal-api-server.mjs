// A diagnostic reference for server.bench.mjs --diagnose and the clean-checkpoint rows
// (`checkpoint-minimal`): what issue 4's required features cost when assembled minimally, by hand
// (minimal-server.mjs), in front of an answer that costs nothing. One route,
// `POST /api/v1/runtimes/checkpoint`, answering the same checkpoint result every time.
import { RuntimeCheckpointRequestSchema, RuntimeCheckpointResultSchema } from '@runtimectl/core';
import { listenForBench, minimalServer } from './minimal-server.mjs';

const app = minimalServer();
const checkpointId = 'rtcp_0192aabbccddeeff0011223344556677';
const answer = RuntimeCheckpointResultSchema.parse({
  checkpoint_id: checkpointId,
  runtime: { runtime_id: 'bench-000', conversation_id: 'bench', sender_id: 'bench', status: 'idle', head_checkpoint_id: checkpointId, created_at_ms: 1, updated_at_ms: 2, metadata: {} },
  parent_checkpoint_id: 'rtcp_0192aabbccddeeff0011223344556670',
  created_at_ms: 3,
  name: null,
  metadata: {},
  reused_backend_snapshot: true,
  manifest_root: null,
});
app.post(
  '/api/v1/runtimes/checkpoint',
  { schema: { body: RuntimeCheckpointRequestSchema, response: { 200: RuntimeCheckpointResultSchema } } },
  async () => answer,
);
await listenForBench(app);
