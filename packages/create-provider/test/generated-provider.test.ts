import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runApiConformance } from '@runtimectl/testkit';
import { afterAll, expect, it } from 'vitest';
import { runProcessToEnd, startServerProcess, type ServerProcess } from '@runtimectl/testkit/server-process';

const WORKSPACE = fileURLToPath(new URL('../../../', import.meta.url));
/** The packages a generated project and runtimed need: these, and the @runtimectl packages they depend on. */
const ROOTS = ['@runtimectl/create-provider', '@runtimectl/provider', '@runtimectl/core', '@runtimectl/testkit', '@runtimectl/daemon', '@runtimectl/cli'];
const PROVIDER_ID = 'acme_dirs';

/** Bounds of each step on a loaded CI machine (liveness, not speed: at rest each takes a fraction). */
const PACK_MS = 60_000;
const INSTALL_MS = 300_000;
const BUILD_MS = 120_000;
const CONFORMANCE_MS = 400_000;
const START_MS = 60_000;

interface Manifest {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, string>;
}

const readManifest = (directory: string) => JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Manifest;

/** Every workspace package directory, by package name. */
function workspacePackages(): Map<string, string> {
  const found = new Map<string, string>();
  for (const parent of ['packages', 'apps']) {
    for (const entry of readdirSync(join(WORKSPACE, parent), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const directory = join(WORKSPACE, parent, entry.name);
      try {
        found.set(readManifest(directory).name, directory);
      } catch {
        // Not a package.
      }
    }
  }
  return found;
}

/** ROOTS and every @runtimectl package they depend on (dependencies and peers), transitively. */
function packagesToPack(packages: Map<string, string>): string[] {
  const needed = new Set<string>();
  const visit = (name: string) => {
    if (needed.has(name)) return;
    const directory = packages.get(name);
    if (directory === undefined) throw new Error(`${name} is not a package of this workspace`);
    needed.add(name);
    const manifest = readManifest(directory);
    for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      if (dependency.startsWith('@runtimectl/')) visit(dependency);
    }
  };
  ROOTS.forEach(visit);
  return [...needed].sort();
}

/** The environment of npm and the programs it runs: ours, without what pnpm and vitest set for their own children. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  const kept = ['npm_config_nodedir', 'npm_config_cache', 'npm_config_registry', 'npm_config_userconfig'];
  const inherited = Object.entries(process.env).filter(
    ([key]) => kept.includes(key) || !/^(npm_|pnpm_|VITEST|NODE_OPTIONS$|TEST$|NODE_ENV$|FORCE_COLOR$)/i.test(key),
  );
  return { ...Object.fromEntries(inherited), NO_COLOR: '1' };
}

const env = cleanEnvironment();
const timings: Array<[string, number]> = [];
const scratch = mkdtempSync(join(tmpdir(), 'create-provider-proof-'));
let daemon: ServerProcess | undefined;

/** Runs one step to its end (exit 0) within `deadlineMs`, its process group killed past it; records how long it took. */
async function step(phase: string, command: string, args: string[], cwd: string, deadlineMs: number): Promise<string> {
  const startedAt = performance.now();
  const output = await runProcessToEnd({ server: 'create-provider proof', phase, command, args, cwd, env, deadlineMs, tailLines: 80 });
  timings.push([phase, Math.round(performance.now() - startedAt)]);
  return output;
}

/** Points every @runtimectl package a project asks for at its tarball: directly, and through `overrides` for what those tarballs depend on. */
function useTarballs(directory: string, tarballs: Map<string, string>): void {
  const manifest = readManifest(directory);
  const specs = Object.fromEntries([...tarballs].map(([name, path]) => [name, `file:${path}`]));
  for (const field of ['dependencies', 'devDependencies'] as const) {
    for (const name of Object.keys(manifest[field] ?? {})) if (specs[name]) manifest[field]![name] = specs[name];
  }
  writeFileSync(join(directory, 'package.json'), `${JSON.stringify({ ...manifest, overrides: specs }, null, 2)}\n`);
}

afterAll(async () => {
  await daemon?.stop('SIGTERM', 5_000);
  rmSync(scratch, { recursive: true, force: true });
  const total = timings.reduce((sum, [, ms]) => sum + ms, 0);
  console.info(`create-provider proof: ${timings.map(([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`).join(', ')}; total ${(total / 1000).toFixed(1)} s`);
}, 30_000);

// The packaging proof: what a third party gets from npm. The workspace packages are packed as
// npm would publish them (pnpm rewrites workspace: ranges), a project is generated by the packed
// CLI outside the repository, installed from those tarballs (third-party packages from the npm
// registry, or npm's cache), built and put through the conformance suite; then the packed
// runtimed loads it by configuration alone: driven over HTTP and by the packed CLI, and held to
// the HTTP API conformance suite.
async function installGeneratedProvider(): Promise<{ url: string; daemonDir: string; banner: string }> {
  const packages = workspacePackages();
  const tarballDir = join(scratch, 'tarballs');
  mkdirSync(tarballDir);
  const tarballs = new Map<string, string>();
  for (const name of packagesToPack(packages)) {
    // One directory per package: the one .tgz in it is the package's, whatever pnpm names it.
    const destination = join(tarballDir, name.replace('/', '+'));
    mkdirSync(destination, { recursive: true });
    await step(`pack ${name}`, 'pnpm', ['pack', '--pack-destination', destination], packages.get(name)!, PACK_MS);
    const packed = readdirSync(destination).filter((file) => file.endsWith('.tgz'));
    expect(packed, `pnpm pack of ${name} made one tarball`).toHaveLength(1);
    tarballs.set(name, join(destination, packed[0]!));
  }

  // The CLI as published: its tarball unpacked, run by node with nothing installed beside it.
  const cliDir = join(scratch, 'cli');
  mkdirSync(cliDir);
  await step('unpack create-provider', 'tar', ['-xzf', tarballs.get('@runtimectl/create-provider')!, '-C', cliDir], scratch, PACK_MS);
  const project = join(scratch, 'acme-dirs');
  const created = await step('create-provider', process.execPath, [join(cliDir, 'package/dist/main.js'), project], scratch, PACK_MS);
  expect(created).toContain(`[providers.${PROVIDER_ID}]`);
  expect(readManifest(project).peerDependencies?.['@runtimectl/provider']).toMatch(/^\^\d/);
  // npm leaves .gitignore out of a tarball: the template ships it as gitignore, renamed on copy.
  expect(existsSync(join(project, '.gitignore'))).toBe(true);

  useTarballs(project, tarballs);
  await step('npm install (generated project)', 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], project, INSTALL_MS);
  await step('npm run build', 'npm', ['run', 'build'], project, BUILD_MS);
  // npm test exits non-zero on any failed test; the summary also says so, for the log.
  const tested = (await step('npm test (conformance)', 'npm', ['test'], project, CONFORMANCE_MS)).replace(/\x1b\[[0-9;]*m/g, '');
  expect(tested).toMatch(/Tests\s+\d+ passed/);
  expect(tested).not.toMatch(/\d+ failed/);

  // runtimed from its tarball. Its install skips install scripts: better-sqlite3 would build from
  // source (its prebuilt binaries are not on the npm registry), and the memory store needs none.
  const daemonDir = join(scratch, 'daemon');
  mkdirSync(daemonDir);
  writeFileSync(join(daemonDir, 'package.json'), JSON.stringify({ name: 'proof-daemon', private: true, dependencies: { '@runtimectl/daemon': '*', '@runtimectl/cli': '*' } }));
  useTarballs(daemonDir, tarballs);
  await step('npm install (runtimed)', 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], daemonDir, INSTALL_MS);
  const config = join(scratch, 'runtimed.toml');
  // A path relative to the configuration file, as an operator beside the project would write it.
  writeFileSync(config, `[providers.${PROVIDER_ID}]\npackage = "./acme-dirs"\n`);
  const startedAt = performance.now();
  daemon = await startServerProcess({
    server: 'runtimed',
    command: join(daemonDir, 'node_modules/.bin/runtimed'),
    args: ['--port', '0', '--state-dir', join(scratch, 'state'), '--config', config, '--store', 'memory'],
    env: { PATH: env.PATH, HOME: env.HOME },
    readyLine: / listening on /,
    deadlineMs: START_MS,
  });
  timings.push(['runtimed start', Math.round(performance.now() - startedAt)]);
  expect(daemon.readyLine).toContain(PROVIDER_ID);
  const url = /listening on (http:\/\/\S+)/.exec(daemon.readyLine)![1]!;
  return { url, daemonDir, banner: daemon.readyLine };
}

// At the top level, so the API conformance suite below knows the daemon's address. Each step has
// its own deadline (a stuck one fails naming its phase, with its output: see step()).
const installed = await installGeneratedProvider();

it('a generated provider builds, passes the conformance suite and runs in runtimed by config, driven over HTTP and by the installed CLI', async () => {
  const { url, daemonDir } = installed;
  const post = (path: string, body: unknown) =>
    fetch(`${url}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });

  const opened = await post('/runtimes/open', { conversation_id: 'proof', sender_id: 'create-provider', provider: PROVIDER_ID });
  expect(opened.status, await opened.clone().text()).toBe(200);
  const { runtime } = (await opened.json()) as { runtime: { runtime_id: string } };
  const ran = await post('/runtimes/exec', { runtime_id: runtime.runtime_id, command: 'echo from the generated provider > made.txt && cat made.txt' });
  expect(ran.status, await ran.clone().text()).toBe(200);
  const { stdout_base64 } = (await ran.json()) as { stdout_base64: string };
  expect(Buffer.from(stdout_base64, 'base64').toString()).toBe('from the generated provider\n');
  const checkpoint = await post('/runtimes/checkpoint', { runtime_id: runtime.runtime_id });
  expect(checkpoint.status, await checkpoint.clone().text()).toBe(200);
  expect(((await checkpoint.json()) as { reused_backend_snapshot: boolean }).reused_backend_snapshot).toBe(false);

  // The web console comes prebuilt in the packages a user installs (@runtimectl/console's tarball).
  expect(installed.banner).toContain(`console: ${url}/console/`);
  const page = await fetch(`${url}/console/`, { signal: AbortSignal.timeout(30_000) });
  expect(page.status).toBe(200);
  const script = /<script[^>]*src="\.\/([^"]+)"/.exec(await page.text())?.[1];
  expect((await fetch(`${url}/console/${script}`, { signal: AbortSignal.timeout(30_000) })).status).toBe(200);

  // The installed CLI drives the same daemon: a command, a checkpoint and a checkout on the generated provider.
  const cli = async (...args: string[]) => {
    const output = await step(`runtimectl ${args[0]}`, join(daemonDir, 'node_modules/.bin/runtimectl'), ['--url', url, ...args], scratch, START_MS);
    // What it printed on stdout (the tail marks each line with its stream).
    return output.split('\n').flatMap((line) => (line.startsWith('[stdout] ') ? [line.slice('[stdout] '.length)] : [])).join('\n');
  };
  expect(await cli('exec', runtime.runtime_id, '--', 'cat', 'made.txt')).toContain('from the generated provider');
  // --quiet: the id alone.
  const checkpointId = (await cli('checkpoint', runtime.runtime_id, '-n', 'from the cli', '--quiet')).trim();
  expect(checkpointId).toMatch(/^rtcp_[0-9a-f]+$/);
  const branch = (await cli('checkout', checkpointId, '--quiet')).trim();
  expect(branch).toMatch(/:checkout:[0-9a-f]{32}$/);
  expect(await cli('exec', branch, '--', 'cat', 'made.txt')).toContain('from the generated provider');

  // The installed CLI's MCP server, as an MCP client launches it: the handshake, then a tool call.
  const read = await mcpToolCall(join(daemonDir, 'node_modules/.bin/runtimectl'), url, 'read_file', { runtime_id: branch, path: 'made.txt' });
  expect(read).toMatchObject({ structuredContent: { content: 'from the generated provider\n', encoding: 'utf-8' } });
}, 5 * 60_000);

/** `runtimectl mcp` spoken to by hand over stdio (JSON-RPC, one message per line): initialize, initialized, one tools/call. */
async function mcpToolCall(bin: string, url: string, name: string, args: Record<string, unknown>): Promise<unknown> {
  const child = spawn(bin, ['mcp'], { env: { PATH: env.PATH, HOME: env.HOME, RUNTIMECTL_URL: url }, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message);
  });
  const send = (message: Record<string, unknown>) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const request = (id: number, method: string, params: Record<string, unknown>) =>
    new Promise<{ result?: unknown; error?: unknown }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`runtimectl mcp: no answer to ${method} within ${START_MS} ms`)), START_MS);
      waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      send({ id, method, params });
    });
  try {
    const initialized = await request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'packaging-proof', version: '0.0.0' } });
    expect(initialized.result).toMatchObject({ serverInfo: { name: 'runtimectl' } });
    send({ method: 'notifications/initialized' });
    const called = await request(2, 'tools/call', { name, arguments: args });
    expect(called.error).toBeUndefined();
    return called.result;
  } finally {
    child.stdin.end();
    child.kill();
  }
}

// The HTTP API contract, against the installed runtimed with the generated provider carrying the
// runtimes (snapshot semantics included: it checkpoints, checks out, pauses and resumes).
runApiConformance({ baseUrl: installed.url, name: 'the installed runtimed, on a generated provider', provider: PROVIDER_ID, snapshotProvider: PROVIDER_ID });
