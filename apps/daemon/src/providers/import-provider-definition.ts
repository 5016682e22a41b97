import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ProviderDefinition } from '@runtimectl/provider';
import { resolve as resolveModule } from 'import-meta-resolve';
import { ConfigError } from '../config/config-error';

/** The provider contract versions this daemon speaks. */
export const SPOKEN_SPECIFICATION_VERSIONS: readonly string[] = ['backend-provider-v1'];

/** Where a package name is looked for, in order: beside the config file (an operator's project), then the daemon's own install (global installs: siblings). */
export function packageSearchBases(configDir: string): string[] {
  return [pathToFileURL(join(configDir, 'package.json')).href, import.meta.url];
}

/** A package directory's entry for `import`: through its own `exports` (a self-reference), else `main`. */
function packageEntry(directory: string, key: string): string {
  const manifestPath = join(directory, 'package.json');
  let manifest: { name?: string; exports?: unknown; main?: string };
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as typeof manifest;
  } catch {
    throw new ConfigError(`${key}: ${directory} is a directory without a readable package.json`);
  }
  if (manifest.exports !== undefined && manifest.name) return resolveModule(manifest.name, pathToFileURL(manifestPath).href);
  return pathToFileURL(join(directory, manifest.main ?? 'index.js')).href;
}

/**
 * The module URL `specifier` names: a path (`./x`, `../x`, `/x`) relative to the config file's
 * directory; otherwise a package name, resolved as Node resolves an `import` from each base in
 * turn (ESM conditions and `exports` honoured, like ESLint's flat config and Vite).
 */
function resolveSpecifier(specifier: string, configDir: string, key: string): string {
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    const path = resolve(configDir, specifier);
    if (!existsSync(path)) throw new ConfigError(`${key}: ${specifier} not found (looked for ${path})`);
    return statSync(path).isDirectory() ? packageEntry(path, key) : pathToFileURL(path).href;
  }
  const bases = packageSearchBases(configDir);
  for (const base of bases) {
    try {
      return resolveModule(specifier, base);
    } catch {
      // Not from here: try the next base.
    }
  }
  const where = bases.map((base) => (base === import.meta.url ? "runtimed's own install" : fileURLToPath(new URL('.', base)))).join(' and ');
  throw new ConfigError(`${key}: package ${specifier} not found (looked beside ${where}); install it where runtimed can import it, e.g. npm i -g ${specifier}`);
}

/** A module's provider definition, or why it is not one. */
function definitionIn(module: Record<string, unknown>, key: string, specifier: string): ProviderDefinition {
  const candidate = module.default as Partial<ProviderDefinition> | undefined;
  const isDefinition =
    candidate !== null &&
    typeof candidate === 'object' &&
    typeof candidate.specificationVersion === 'string' &&
    typeof candidate.id === 'string' &&
    typeof candidate.create === 'function' &&
    typeof (candidate.settings as { safeParse?: unknown } | undefined)?.safeParse === 'function';
  if (!isDefinition) {
    throw new ConfigError(`${key}: ${specifier} is not a runtimectl provider (its default export must be defineProvider({...}) from @runtimectl/provider)`);
  }
  if (!SPOKEN_SPECIFICATION_VERSIONS.includes(candidate.specificationVersion!)) {
    throw new ConfigError(
      `${key}: ${specifier} implements ${candidate.specificationVersion}; this runtimed speaks ${SPOKEN_SPECIFICATION_VERSIONS.join(', ')} (upgrade runtimed, or use a release of the provider for this contract)`,
    );
  }
  return candidate as ProviderDefinition;
}

/** Loads the provider definition `specifier` names; every failure is one line naming `key`. */
export async function importProviderDefinition(specifier: string, configDir: string, key: string): Promise<ProviderDefinition> {
  const url = resolveSpecifier(specifier, configDir, key);
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`${key}: ${specifier} failed to load: ${(error as Error).message.split('\n')[0]}`);
  }
  return definitionIn(module, key, specifier);
}
