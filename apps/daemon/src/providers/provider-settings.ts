import type { ProviderDefinition } from '@runtimectl/provider';
import { z } from 'zod';
import { ConfigError } from '../config/config-error';
import { envNameOf, type ConfigKey } from '../config/config-keys';
import { fromEnv } from '../config/load-config';

type JsonSchema = { type?: string | string[]; enum?: unknown[]; description?: string; anyOf?: JsonSchema[]; properties?: Record<string, JsonSchema> };

/** How a setting of this JSON Schema is read from a variable; anything the schema leaves open is taken as written. */
function keyTypeOf(schema: JsonSchema): ConfigKey['type'] {
  const types = [schema.type, ...(schema.anyOf ?? []).map((option) => option.type)].flat().filter((type) => type !== undefined && type !== 'null');
  const [type] = types;
  if (types.length !== 1) return 'string';
  if (type === 'integer' || type === 'number' || type === 'boolean') return type;
  if (type === 'array') return 'list';
  if (type === 'object') return 'json';
  return 'string';
}

/**
 * A provider's settings as keys (`providers.<id>.<key>`, type, description), from its schema:
 * what RUNTIMECTL_PROVIDERS_<ID>_<KEY> variables are read as, and what `runtimed --help` lists.
 */
export function providerSettingKeys(definition: ProviderDefinition, id: string): ConfigKey[] {
  let schema: JsonSchema;
  try {
    schema = z.toJSONSchema(definition.settings, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return [];
  }
  return Object.entries(schema.properties ?? {}).map(([key, property]) => ({
    path: `providers.${id}.${key}`,
    type: keyTypeOf(property),
    description: property.description ?? '',
  }));
}

/** The section's settings: the file's, then RUNTIMECTL_PROVIDERS_<ID>_<KEY> variables, then flags, validated by the provider's own schema. */
export function resolveProviderSettings(
  definition: ProviderDefinition,
  id: string,
  section: Record<string, unknown>,
  overrides: { env: NodeJS.ProcessEnv; flags: Record<string, unknown> },
): unknown {
  const { package: _package, enabled: _enabled, ...raw } = section;
  for (const key of providerSettingKeys(definition, id)) {
    const name = envNameOf(key.path);
    const value = overrides.env[name];
    if (value !== undefined && value !== '') raw[key.path.slice(`providers.${id}.`.length)] = fromEnv(key, value, name);
  }
  for (const [path, value] of Object.entries(overrides.flags)) {
    const [, flagId, key] = path.split('.');
    if (flagId === id && key !== undefined) raw[key] = value;
  }
  const parsed = definition.settings.safeParse(raw);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const at = ['providers', id, ...issue.path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `  ${at}.${key}: unknown key`).join('\n');
    return `  ${at}: ${issue.message}`;
  });
  throw new ConfigError(`invalid configuration of provider ${id} (${definition.description}):\n${lines.join('\n')}\nSee \`runtimed --help\` and the provider's README.`);
}
