import type { z } from 'zod';
import type { BackendProviderV1 } from './backend-provider-v1';

/**
 * The contract version this package describes. A provider package's definition names the version
 * it implements; a daemon loads only definitions whose version it speaks (see README: a new
 * major of the contract comes with a new version string, never a silent change of this one).
 */
export const PROVIDER_SPECIFICATION_VERSION = 'backend-provider-v1';
export type ProviderSpecificationVersion = typeof PROVIDER_SPECIFICATION_VERSION;

/** The log methods a provider gets (pino's signature, bound to the provider's id). */
export interface ProviderLogger {
  debug(object: Record<string, unknown>, message?: string): void;
  info(object: Record<string, unknown>, message?: string): void;
  warn(object: Record<string, unknown>, message?: string): void;
  error(object: Record<string, unknown>, message?: string): void;
}

/** Metrics hooks: what a provider reports lands in the daemon's `/metrics`, labelled with its id. */
export interface ProviderTelemetry {
  /** Counts a write or command the provider refused because a workspace quota was reached. */
  workspaceQuotaRefused(operation: 'write' | 'exec'): void;
  /** Reports the disk its workspaces use, read at each metrics scrape. */
  watchWorkspaceUsage(read: () => { bytesUsed: number }): void;
}

/**
 * What the daemon hands a provider when it creates it: never the daemon's own secrets (tokens,
 * the fleet secret, database URLs). A provider that needs a credential names an environment
 * variable in its settings, the way `providers.e2b.api_key_env` does.
 */
export interface ProviderContext {
  /**
   * The provider's id: the key of its `[providers.<id>]` section. The provider's `providerId`
   * must equal it (the daemon refuses to start otherwise); a provider that takes its id from
   * here can be configured twice under two ids.
   */
  readonly providerId: string;
  /** A directory for this provider alone, created owner-only before `create`, kept across restarts. */
  readonly stateDir: string;
  /** The daemon's node id in its fleet (one node: still an id). */
  readonly nodeId: string;
  /** The fleet's lease length: a resource that times out by itself (an E2B sandbox) must live at least twice this between renewals. */
  readonly leaseMs: number;
  readonly logger: ProviderLogger;
  readonly telemetry: ProviderTelemetry;
}

/**
 * A provider package's default export: how a daemon validates the package's settings and creates
 * the provider. `settings` is a zod schema of the `[providers.<id>]` section (without `package`
 * and `enabled`, which are the daemon's): the daemon validates the section with it and names the
 * failing key; environment variables and flags override its top-level keys by the JSON type the
 * schema gives them.
 */
export interface ProviderDefinition<Settings = unknown> {
  readonly specificationVersion: ProviderSpecificationVersion;
  /** The id the provider is known by when no section names it otherwise (`local`, `e2b`, `acme`). */
  readonly id: string;
  /** One line for `runtimed --help` and load errors. */
  readonly description: string;
  readonly settings: z.ZodType<Settings>;
  create(settings: Settings, context: ProviderContext): BackendProviderV1 | Promise<BackendProviderV1>;
}

/** Declares a provider package's definition, typed by its settings schema (`export default defineProvider({...})`). */
export function defineProvider<Schema extends z.ZodType>(
  definition: Omit<ProviderDefinition<z.output<Schema>>, 'settings' | 'specificationVersion'> & {
    readonly settings: Schema;
    readonly specificationVersion?: ProviderSpecificationVersion;
  },
): ProviderDefinition<z.output<Schema>> {
  // A zod schema is a ZodType of its own output; TypeScript cannot see that through the generic.
  return { ...definition, settings: definition.settings as z.ZodType<z.output<Schema>>, specificationVersion: PROVIDER_SPECIFICATION_VERSION };
}
