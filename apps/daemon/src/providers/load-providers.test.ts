import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineProvider } from '@runtimectl/provider';
import { createServerTelemetry } from '@runtimectl/server-http';
import { createMemoryProvider } from '@runtimectl/testkit/memory-provider';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createProviders } from '../compose/create-providers';
import { loadConfig } from '../config/load-config';
import { loadProviders } from './load-providers';
import { temporaryDirectory } from '../../test/temporary-directory';

const ACME = fileURLToPath(new URL('../../test/fixtures/acme-provider', import.meta.url));

/** A directory holding `runtimed.toml` with `text` (and whatever `prepare` puts beside it); the state directory inside it. */
function configDir(text: string, prepare: (dir: string) => void = () => undefined): { path: string; dir: string } {
  const dir = temporaryDirectory('runtimed-providers-');
  prepare(dir);
  const path = join(dir, 'runtimed.toml');
  writeFileSync(path, `state_dir = "${join(dir, 'state')}"\n${text}`);
  return { path, dir };
}

const configOf = (env: NodeJS.ProcessEnv = {}, flags: Record<string, unknown> = {}, configPath?: string) =>
  loadConfig({ env: { HOME: '/home/someone', ...env }, flags, ...(configPath ? { configPath } : {}) });
const load = (env: NodeJS.ProcessEnv = {}, flags: Record<string, unknown> = {}, configPath?: string) => loadProviders(configOf(env, flags, configPath));
const settingsOf = async (...args: Parameters<typeof load>) =>
  Object.fromEntries((await load(...args)).map(({ id, settings }) => [id, settings as Record<string, unknown>]));

/** Loads and creates, as startDaemon does. */
async function create(configPath: string, env: NodeJS.ProcessEnv = {}) {
  const config = configOf(env, {}, configPath);
  const loaded = await loadProviders(config);
  return createProviders(loaded, { config, nodeId: 'node-a', logger: pino({ level: 'silent' }), telemetry: createServerTelemetry() });
}

describe('loadProviders: first-party providers', () => {
  it('run fs (the default) and local by their package names, with their workspaces where earlier releases kept them', async () => {
    const loaded = await load();
    expect(loaded.map(({ id, source }) => [id, source])).toEqual([
      ['local', '@runtimectl/provider-local'],
      ['fs', '@runtimectl/provider-fs'],
    ]);
    const settings = await settingsOf();
    expect(settings.local).toMatchObject({ root: '/home/someone/.local/state/runtimectl/workspaces', keep_workspaces: false, workspace_quota_bytes: 10 * 1024 ** 3 });
    expect(settings.fs).toMatchObject({
      root: '/home/someone/.local/state/runtimectl/fs/workspaces',
      snapshots: '/home/someone/.local/state/runtimectl/fs/snapshots',
      shell: '/bin/sh',
      compress: true,
      isolation: 'auto',
      network: 'egress',
      workspace_path: '/home/user/workspace',
      sandbox_ids: 'auto',
      env: {},
    });
    expect(settings.fs!.memory_limit_bytes).toBeUndefined();
  });

  it('[providers.fs] takes the local settings plus snapshots and compress, from the file, RUNTIMECTL_PROVIDERS_FS_* variables and flags', async () => {
    const { path } = configDir('[providers.fs]\nroot = "/srv/ws"\nsnapshots = "/srv/snaps"\nshell = "/bin/bash"\ncompress = false\nenv = { LANG = "C.UTF-8" }\n');
    const settings = await settingsOf({ RUNTIMECTL_PROVIDERS_FS_ISOLATION: 'none', RUNTIMECTL_PROVIDERS_FS_NETWORK: 'false' }, {}, path);
    expect(settings.fs).toMatchObject({ root: '/srv/ws', snapshots: '/srv/snaps', shell: '/bin/bash', compress: false, env: { LANG: 'C.UTF-8' }, isolation: 'none', network: 'none' });
    expect((await settingsOf({ RUNTIMECTL_PROVIDERS_FS_COMPRESS: 'off', RUNTIMECTL_PROVIDERS_FS_SNAPSHOTS: '/x/snaps' })).fs).toMatchObject({ compress: false, snapshots: '/x/snaps' });
    await expect(load({}, {}, configDir('[providers.fs]\nkeep_workspaces = true\n').path)).rejects.toThrow(/providers\.fs\.keep_workspaces: unknown key/);
    await expect(load({ RUNTIMECTL_PROVIDERS_FS_ISOLATION: 'jail' })).rejects.toThrow(/providers\.fs\.isolation/);
    // Flags win over variables.
    expect((await settingsOf({ RUNTIMECTL_PROVIDERS_FS_SHELL: '/bin/zsh' }, { 'providers.fs.shell': '/bin/dash' })).fs!.shell).toBe('/bin/dash');
  });

  it('isolation v2 settings: network modes (booleans from before read as host and none), workspace path, sandbox ids, limits', async () => {
    const { path } = configDir('[providers.local]\nnetwork = true\nworkspace_path = "/workspace"\nsandbox_ids = "5000:5001"\nmemory_limit_bytes = 1073741824\npids_limit = 512\ncpu_limit_cores = 1.5\n');
    expect((await settingsOf({}, {}, path)).local).toMatchObject({ network: 'host', workspace_path: '/workspace', sandbox_ids: '5000:5001', memory_limit_bytes: 1024 ** 3, pids_limit: 512, cpu_limit_cores: 1.5 });
    expect((await settingsOf({ RUNTIMECTL_PROVIDERS_LOCAL_NETWORK: 'egress', RUNTIMECTL_PROVIDERS_LOCAL_CPU_LIMIT_CORES: '0.5' })).local).toMatchObject({ network: 'egress', cpu_limit_cores: 0.5 });
    await expect(load({ RUNTIMECTL_PROVIDERS_LOCAL_NETWORK: 'bridge' })).rejects.toThrow(/providers\.local\.network/);
    await expect(load({ RUNTIMECTL_PROVIDERS_FS_SANDBOX_IDS: '0:0' })).rejects.toThrow(/providers\.fs\.sandbox_ids/);
    await expect(load({ RUNTIMECTL_PROVIDERS_FS_WORKSPACE_PATH: 'relative' })).rejects.toThrow(/providers\.fs\.workspace_path/);
    await expect(load({ RUNTIMECTL_PROVIDERS_LOCAL_WORKSPACE_QUOTA_BYTES: '-1' })).rejects.toThrow(/providers\.local\.workspace_quota_bytes/);
    expect((await settingsOf({ RUNTIMECTL_PROVIDERS_LOCAL_WORKSPACE_QUOTA_BYTES: '0' })).local!.workspace_quota_bytes).toBe(0);
  });

  it("refuses two providers sharing one workspaces directory (each would take the other's workspaces for its own)", async () => {
    await expect(load({ RUNTIMECTL_PROVIDERS_FS_ROOT: '/srv/ws', RUNTIMECTL_PROVIDERS_LOCAL_ROOT: '/srv/ws/' })).rejects.toThrow(
      /providers\.fs\.root: must differ from providers\.local\.root/,
    );
    expect((await settingsOf({ RUNTIMECTL_PROVIDERS_FS_ROOT: '/srv/ws', RUNTIMECTL_PROVIDERS_LOCAL_ROOT: '/srv/ws', RUNTIMECTL_PROVIDERS_LOCAL_ENABLED: 'false' })).fs!.root).toBe('/srv/ws');
  });

  it('the default provider must run; naming a first-party one as default enables it, and fs can be turned off', async () => {
    expect((await load({}, { 'runtimes.default_provider': 'memory' })).map(({ id }) => id)).toEqual(['local', 'fs', 'memory']);
    expect((await load({ RUNTIMECTL_PROVIDERS_FS_ENABLED: 'false' }, { 'runtimes.default_provider': 'local' })).map(({ id }) => id)).toEqual(['local']);
    await expect(load({ RUNTIMECTL_PROVIDERS_FS_ENABLED: 'false' })).rejects.toThrow(/runtimes\.default_provider: must name an enabled provider/);
    await expect(load({ RUNTIMECTL_PROVIDERS_MEMORY_ENABLED: 'false' }, { 'runtimes.default_provider': 'memory' })).rejects.toThrow(/runtimes\.default_provider/);
    await expect(load({}, { 'runtimes.default_provider': 'nope' })).rejects.toThrow(/runtimes\.default_provider: must name an enabled provider/);
  });

  it("an enabled E2B provider's sandbox timeout must exceed twice the fleet lease (a sandbox outlives the take-over of a dead holder's keep-alive duty)", async () => {
    const { path } = configDir('[fleet]\nlease_ms = 5000\n[providers.e2b]\nenabled = true\nsandbox_timeout_ms = 10000\n');
    await expect(create(path, { E2B_API_KEY: 'e2b_test' })).rejects.toThrow(/^providers\.e2b\.sandbox_timeout_ms: must exceed twice fleet\.lease_ms/);
  });
});

describe('loadProviders: provider packages named by configuration', () => {
  it('loads a package by a path relative to the config file, validates its settings with its schema and creates it with its own context', async () => {
    const { path, dir } = configDir('[providers.acme]\npackage = "./acme"\ngreeting = "hi"\n', (dir) => symlinkSync(ACME, join(dir, 'acme')));
    const providers = await create(path, { RUNTIMECTL_PROVIDERS_ACME_LIMIT: '7', RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN: 'a-secret-token-1234567890' });
    expect(providers.map((provider) => provider.providerId)).toEqual(['local', 'fs', 'acme']);
    const stateDir = join(dir, 'state', 'providers', 'acme');
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    const seen = JSON.parse(readFileSync(join(stateDir, 'created.json'), 'utf8')) as Record<string, unknown>;
    expect(seen).toEqual({
      settings: { greeting: 'hi', limit: 7 },
      contextKeys: ['leaseMs', 'logger', 'nodeId', 'providerId', 'stateDir', 'telemetry'],
      providerId: 'acme',
      nodeId: 'node-a',
      leaseMs: 15_000,
    });
    expect(JSON.stringify(seen)).not.toContain('a-secret-token');
  });

  it('finds a package by name beside the config file (node_modules), and takes package and enabled from RUNTIMECTL_PROVIDERS_<ID>_* variables alone', async () => {
    const { path } = configDir('', (dir) => {
      mkdirSync(join(dir, 'node_modules', '@acme'), { recursive: true });
      symlinkSync(ACME, join(dir, 'node_modules', '@acme', 'runtimectl-provider-acme'));
    });
    const env = { RUNTIMECTL_PROVIDERS_ACME_PACKAGE: '@acme/runtimectl-provider-acme' };
    expect((await load(env, {}, path)).map(({ id, source }) => `${id} ${source}`)).toContain('acme @runtimectl-provider-acme'.replace('@runtimectl', '@acme/runtimectl'));
    expect((await load({ ...env, RUNTIMECTL_PROVIDERS_ACME_ENABLED: 'false' }, {}, path)).map(({ id }) => id)).toEqual(['local', 'fs']);
    await expect(load({ ...env, RUNTIMECTL_PROVIDERS_ACME_LIMIT: 'many' }, {}, path)).rejects.toThrow(/RUNTIMECTL_PROVIDERS_ACME_LIMIT: expected an integer/);
  });

  it('each load failure is one line naming the key: not found (and where it looked), not a provider, a contract it does not speak, bad settings, no package, an id clash', async () => {
    const packageDir = (dir: string, name: string, source: string) => {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'package.json'), JSON.stringify({ name, type: 'module', exports: './index.js' }));
      writeFileSync(join(dir, name, 'index.js'), source);
    };
    const fixtures = (dir: string) => {
      symlinkSync(ACME, join(dir, 'acme'));
      packageDir(dir, 'plain', 'export default { hello: "world" };\n');
      packageDir(dir, 'future', 'export default { specificationVersion: "backend-provider-v9", id: "future", description: "", settings: { safeParse: () => ({ success: true, data: {} }) }, create() {} };\n');
      packageDir(dir, 'squatter', 'export default { specificationVersion: "backend-provider-v1", id: "squatter", description: "", settings: { safeParse: () => ({ success: true, data: {} }) }, create: () => ({ specificationVersion: "backend-provider-v1", providerId: "local" }) };\n');
    };
    const refusal = async (section: string, run: (path: string) => Promise<unknown> = (path) => load({}, {}, path)) => {
      const { path } = configDir(section, fixtures);
      const error = (await run(path).then(() => null, (error: unknown) => error)) as Error | null;
      expect(error, section).not.toBeNull();
      return error!.message;
    };
    expect(await refusal('[providers.acme]\npackage = "@acme/nowhere"\n')).toMatch(/^providers\.acme\.package: package @acme\/nowhere not found \(looked beside .+ and runtimed's own install\)/);
    expect(await refusal('[providers.acme]\npackage = "./missing"\n')).toMatch(/^providers\.acme\.package: \.\/missing not found \(looked for .+missing\)$/);
    expect(await refusal('[providers.plain]\npackage = "./plain"\n')).toMatch(/^providers\.plain\.package: \.\/plain is not a runtimectl provider/);
    expect(await refusal('[providers.future]\npackage = "./future"\n')).toMatch(/^providers\.future\.package: \.\/future implements backend-provider-v9; this runtimed speaks backend-provider-v1/);
    expect(await refusal('[providers.acme]\npackage = "./acme"\nlimit = 0\n')).toMatch(/providers\.acme\.limit: .*>=1/);
    expect(await refusal('[providers.acme]\npackage = "./acme"\ncolour = "red"\n')).toMatch(/providers\.acme\.colour: unknown key/);
    expect(await refusal('[providers.acme]\ngreeting = "hi"\n')).toMatch(/^providers\.acme: names no package; add package = /);
    expect(await refusal('[providers.squatter]\npackage = "./squatter"\n', (path) => create(path))).toMatch(
      /^providers\.squatter: \.\/squatter created the provider "local"; name its section \[providers\.local\]/,
    );
  });

  it('runs definitions an embedding program hands over, configured by their sections like packages', async () => {
    const definition = defineProvider({
      id: 'inhouse',
      description: 'an embedded provider',
      settings: z.strictObject({ size: z.int().default(1) }),
      create: (_settings, context) => createMemoryProvider({ providerId: context.providerId }),
    });
    const { path } = configDir('[providers.inhouse]\nsize = 4\n');
    const config = configOf({}, {}, path);
    const loaded = await loadProviders(config, [definition]);
    expect(loaded.map(({ id, settings, source }) => [id, settings, source]).at(-1)).toEqual(['inhouse', { size: 4 }, 'embedded']);
    expect(existsSync(join(config.stateDir, 'providers'))).toBe(false);
    expect((await loadProviders(configOf({ RUNTIMECTL_PROVIDERS_INHOUSE_ENABLED: 'false' }, {}, path), [definition])).map(({ id }) => id)).toEqual(['local', 'fs']);
  });
});
