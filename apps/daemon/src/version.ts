import packageJson from '../package.json';

export const DAEMON_VERSION: string = packageJson.version;
