import { readFileSync } from 'node:fs';

/** The version in the CLI package's package.json (one directory above both src/ and dist/). */
export const ATRIUM_VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;
