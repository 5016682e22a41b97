/** A configuration the daemon refuses to start with. The message names the key and what was expected. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
