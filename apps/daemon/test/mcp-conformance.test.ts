import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';
import { temporaryDirectory } from './temporary-directory';

// The MCP conformance suite from the registry (@modelcontextprotocol/conformance, pinned) run as
// its CLI against a real runtimed's POST /mcp: `conformance server --url … --suite all`. Its
// server scenarios mostly test the fixtures of the SDKs' "everything" server (tools named
// test_*, prompts, resources, sampling, elicitation); those that apply to a server with
// runtimectl's own tools must pass, the rest are named here with why not (packages/mcp/README.md,
// "Conformance", is this table). No auth on loopback: the CLI sends no Authorization header,
// and its DNS rebinding scenario is about exactly that kind of server.
const PACKAGE_JSON = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json');
const CONFORMANCE = join(dirname(PACKAGE_JSON), JSON.parse(fs.readFileSync(PACKAGE_JSON, 'utf8')).bin.conformance);
/** A bound, not a speed check: the whole suite takes about 3 s. */
const RUN_DEADLINE_MS = 60_000;

const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'no logging capability (the server sends no log messages)',
  'completion-complete': 'no completions capability (no prompts or resource templates to complete)',
  'tools-call-simple-text': 'fixture tool test_simple_text; it "passes" only because the unknown-tool error is text',
  'tools-call-image': 'fixture tool test_image_content',
  'tools-call-audio': 'fixture tool test_audio_content',
  'tools-call-embedded-resource': 'fixture tool test_embedded_resource',
  'tools-call-mixed-content': 'fixture tool test_multiple_content_types',
  'tools-call-with-logging': 'fixture tool test_tool_with_logging, and no logging capability',
  'tools-call-error': 'fixture tool test_error_handling; it "passes" only because an unknown tool is a tool error',
  'tools-call-with-progress': 'fixture tool test_tool_with_progress; runtimectl\'s long tools report progress (stdio, and POST /mcp as an SSE answer)',
  'tools-call-sampling': 'fixture tool test_sampling: the server asks the client for no sampling',
  'tools-call-elicitation': 'fixture tool test_elicitation: the server asks the client for no input',
  'json-schema-2020-12': 'fixture tool json_schema_2020_12_tool',
  'elicitation-sep1034-defaults': 'fixture tool test_elicitation_sep1034_defaults: no elicitation',
  'elicitation-sep1330-enums': 'fixture tool test_elicitation_sep1330_enums: no elicitation',
  'server-sse-polling': 'needs sessions (fixture tool test_reconnection); POST /mcp is stateless',
  'server-sse-multiple-streams': 'needs sessions; POST /mcp is stateless',
  'resources-read-text': 'fixture resource test://static-text (runtimectl\'s are runtimectl:// files and checkpoint logs)',
  'resources-read-binary': 'fixture resource test://static-binary',
  'resources-templates-read': 'fixture template test://template/{id}/data',
  'resources-subscribe': 'no resource subscriptions (a stateless server has no session to notify)',
  'resources-unsubscribe': 'no resource subscriptions',
  'prompts-list': 'no prompts capability',
  'prompts-get-simple': 'no prompts capability (fixture test_simple_prompt)',
  'prompts-get-with-args': 'no prompts capability (fixture test_prompt_with_arguments)',
  'prompts-get-embedded-resource': 'no prompts capability (fixture test_prompt_with_embedded_resource)',
  'prompts-get-with-image': 'no prompts capability (fixture test_prompt_with_image)',
};

/**
 * Node options that let the CLI load on Node 20: it imports `globSync` from `fs` (Node 22),
 * which only its tier-check command calls. Its own imports of `fs` get node:fs plus a stub.
 */
function nodeOptionsForConformance(): string[] {
  if (typeof (fs as { globSync?: unknown }).globSync === 'function') return [];
  const module = (source: string) => `data:text/javascript,${encodeURIComponent(source)}`;
  const fsWithGlob = module("export * from 'node:fs'; export { default } from 'node:fs'; export function globSync() { throw new Error('fs.globSync needs Node 22'); }");
  const hooks = module(
    `export async function resolve(specifier, context, next) {
      if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) return { url: ${JSON.stringify(fsWithGlob)}, shortCircuit: true };
      return next(specifier, context);
    }`,
  );
  return ['--import', module(`import { register } from 'node:module'; register(${JSON.stringify(hooks)});`)];
}

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** Runs `conformance server --suite all` (bounded) and reads each scenario's checks from its output directory. */
async function runConformance(url: string): Promise<{ scenarios: Map<string, Check[]>; output: string }> {
  const outputDir = temporaryDirectory('mcp-conformance-');
  const args = [...nodeOptionsForConformance(), CONFORMANCE, 'server', '--url', url, '--suite', 'all', '--output-dir', outputDir];
  const output = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, args, { timeout: RUN_DEADLINE_MS, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const text = `${stdout}${stderr}`;
      // Exit 1 is its verdict when any scenario failed (the not applicable ones do); anything else is not a run.
      if (error && (error.killed || error.signal || error.code !== 1)) reject(new Error(`conformance did not finish (${error.message}):\n${text.slice(-4000)}`));
      else resolve(text);
    });
  });
  const scenarios = new Map<string, Check[]>();
  for (const entry of fs.readdirSync(outputDir)) {
    const name = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
    if (name) scenarios.set(name, JSON.parse(fs.readFileSync(join(outputDir, entry, 'checks.json'), 'utf8')) as Check[]);
  }
  return { scenarios, output };
}

let daemon: RuntimedProcess;
let mcpUrl: string;

beforeAll(async () => {
  daemon = await startRuntimed(['--log-level', 'warn', '--store', 'memory', '--provider', 'memory', '--local-isolation', 'none']);
  mcpUrl = `${daemon.url}/mcp`;
});

afterAll(async () => {
  await daemon?.stop();
});

describe('runtimed POST /mcp against the MCP conformance suite (@modelcontextprotocol/conformance 0.1.16)', () => {
  it('passes every server scenario that applies to runtimectl: initialize, ping, tools/list, resources/list and DNS rebinding protection; every other scenario is one the table names as not applicable', async () => {
    const { scenarios, output } = await runConformance(mcpUrl);
    expect([...scenarios.keys()].sort(), `the scenarios the CLI ran, against those classified here:\n${output.slice(-2000)}`).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
    for (const scenario of APPLICABLE) {
      const checks = scenarios.get(scenario)!;
      const failed = checks.filter((check) => check.status === 'FAILURE').map((check) => `${check.id}: ${check.errorMessage ?? ''}`);
      expect(failed, `conformance scenario ${scenario} failed`).toEqual([]);
      expect(checks.some((check) => check.status === 'SUCCESS'), `conformance scenario ${scenario} passed no check`).toBe(true);
    }
  });

  it('refuses a request whose Origin names another site (or is null) 403 with a JSON-RPC error, and serves one with no Origin, a loopback Origin or its own', async () => {
    const ping = (origin?: string) =>
      fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(origin ? { origin } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
      });
    for (const origin of ['http://evil.example.com', 'null', 'file://x']) {
      const refused = await ping(origin);
      expect(refused.status, origin).toBe(403);
      expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    }
    for (const origin of [undefined, 'http://localhost:3000', 'http://[::1]:8080', daemon.url]) {
      const served = await ping(origin);
      expect(served.status, String(origin)).toBe(200);
      expect(await served.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    }
  });

  it('answers GET and DELETE /mcp 405 with Allow: POST, as a server with no standalone stream and no sessions does', async () => {
    for (const method of ['GET', 'DELETE']) {
      const answer = await fetch(mcpUrl, { method, headers: { accept: 'text/event-stream' } });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow'), method).toBe('POST');
      await answer.body?.cancel();
    }
  });
});
