export { createLocalProvider, LocalProvider, type LocalProviderSettings } from './local-provider';
