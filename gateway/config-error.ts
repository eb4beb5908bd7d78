/**
 * Raised for a configuration the gateway cannot start with; the message names the setting. Its own
 * module, so that the settings readers (verification keys, webhook settings) that `config.ts` calls
 * do not import `config.ts` back.
 */
export class ConfigError extends Error {}
