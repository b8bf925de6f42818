/** A configuration problem: one line naming the key and what is wrong with it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly exitCode = 2;
}
