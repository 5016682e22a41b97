import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { rangesOf } from './dependency-ranges';

declare const __TEMPLATE_RANGES__: string | undefined;

const TEMPLATE_DIR = fileURLToPath(new URL('../template/', import.meta.url));
const OWN_MANIFEST = fileURLToPath(new URL('../package.json', import.meta.url));

const PROVIDER_ID = /^[a-z][a-z0-9_]{0,31}$/;
const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
/** Files npm would drop or act on inside a package: shipped under another name, renamed on copy. */
// A nested package.json in our own tarball would be linted (and half-read by bundlers) as a package.
const RENAMED: Record<string, string> = { gitignore: '.gitignore', 'package.json.template': 'package.json' };

/** A user's mistake, told in one line (the CLI exits 1 with it). */
export class CreateProviderError extends Error {}

export interface CreateProjectOptions {
  directory: string;
  /** The provider id (`[providers.<id>]`); default: the directory's name, sanitised. */
  id?: string;
  /** The npm package name; default: `runtimectl-provider-<id>`. */
  name?: string;
}

export interface CreatedProject {
  directory: string;
  id: string;
  name: string;
  files: string[];
}

/** A provider id made from `text` (a directory name): lower case, `_` for anything else, starting with a letter, at most 32 characters. */
export function providerIdFrom(text: string): string | undefined {
  const id = text
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .slice(0, 32)
    .replace(/_+$/, '');
  return PROVIDER_ID.test(id) ? id : undefined;
}

/**
 * The version ranges the generated project depends on, by package. This package's own
 * devDependencies are the one place they are kept, so the template follows the versions the
 * runtimectl workspace builds and tests with; a `workspace:` range is the linked package's
 * version. The build bakes them into dist (`__TEMPLATE_RANGES__`, tsup.config.ts): a published
 * manifest carries no devDependencies.
 */
export function dependencyRanges(): Record<string, string> {
  if (typeof __TEMPLATE_RANGES__ === 'string') return JSON.parse(__TEMPLATE_RANGES__) as Record<string, string>;
  return rangesOf(dirname(OWN_MANIFEST));
}

/** Fills every `{{version}}` of the template's package.json from `dependencyRanges()`. */
function withVersions(manifestText: string): string {
  const manifest = JSON.parse(manifestText) as Record<string, unknown>;
  const ranges = dependencyRanges();
  for (const field of ['dependencies', 'peerDependencies', 'devDependencies']) {
    const dependencies = manifest[field] as Record<string, string> | undefined;
    for (const name of Object.keys(dependencies ?? {})) {
      if (dependencies![name] !== '{{version}}') continue;
      const range = ranges[name];
      if (range === undefined) throw new Error(`create-provider: no version of ${name} in its own package.json (the template needs one)`);
      dependencies![name] = range;
    }
  }
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function templateFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? templateFiles(join(directory, entry.name)) : [join(directory, entry.name)],
  );
}

/**
 * Writes a standalone provider project into `options.directory` (created; refused unless empty),
 * from the template shipped in this package, with its id and package name filled in.
 */
export function createProject(options: CreateProjectOptions): CreatedProject {
  const directory = resolve(options.directory);
  const id = options.id ?? providerIdFrom(basename(directory));
  if (id === undefined) throw new CreateProviderError(`cannot make a provider id from "${basename(directory)}": pass --id (a letter, then up to 31 of a-z, 0-9, _)`);
  if (!PROVIDER_ID.test(id)) throw new CreateProviderError(`--id "${id}" is not a provider id: a letter, then up to 31 of a-z, 0-9, _`);
  const name = options.name ?? `runtimectl-provider-${id.replace(/_/g, '-')}`;
  if (!PACKAGE_NAME.test(name) || name.length > 214) throw new CreateProviderError(`--name "${name}" is not an npm package name`);
  if (existsSync(directory) && (!statSync(directory).isDirectory() || readdirSync(directory).length > 0)) {
    throw new CreateProviderError(`${directory} exists and is not empty: choose a new directory`);
  }

  const placeholders: Record<string, string> = { '{{id}}': id, '{{ID}}': id.toUpperCase(), '{{name}}': name };
  const files: string[] = [];
  for (const source of templateFiles(TEMPLATE_DIR)) {
    const path = relative(TEMPLATE_DIR, source);
    const target = join(directory, join(path, '..'), RENAMED[basename(path)] ?? basename(path));
    let text = readFileSync(source, 'utf8').replace(/\{\{(id|ID|name)\}\}/g, (placeholder) => placeholders[placeholder]!);
    if (path === 'package.json.template') text = withVersions(text);
    mkdirSync(join(target, '..'), { recursive: true });
    writeFileSync(target, text);
    files.push(relative(directory, target));
  }
  return { directory, id, name, files: files.sort() };
}
