export { startDaemon, type RunningDaemon, type StartDaemonOptions } from './compose/start-daemon';
export { loadProviders, type LoadedProvider } from './providers/load-providers';
export { loadConfig, type ConfigSources, type ResolvedConfig } from './config/load-config';
export { ConfigError } from './config/config-error';
export { DaemonConfigSchema, type DaemonConfig } from './config/config-schema';
export { CONFIG_KEYS, envNameOf, type ConfigKey } from './config/config-keys';
