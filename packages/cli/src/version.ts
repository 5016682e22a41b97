import packageJson from '../package.json';

export const CLI_VERSION: string = packageJson.version;
