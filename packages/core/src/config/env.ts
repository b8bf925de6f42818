import type { ConfigLeaf } from './schema-walk.js';

/** `bench.databaseUrl` -> `ATRIUM_BENCH_DATABASE_URL`. */
export function envName(path: readonly string[]): string {
  return `ATRIUM_${path.map((p) => p.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()).join('_')}`;
}

function coerce(raw: string, leaf: ConfigLeaf): unknown {
  switch (leaf.kind) {
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
    case 'boolean':
      if (/^(true|1|yes|on)$/i.test(raw)) return true;
      if (/^(false|0|no|off)$/i.test(raw)) return false;
      return raw;
    case 'string-list':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
    default:
      return raw;
  }
}

export interface EnvOverlay {
  values: Record<string, unknown>;
  /** dotted config key -> the environment variable that set it, for error messages */
  sources: Map<string, string>;
}

/** Builds the nested object that the `ATRIUM_*` variables describe, for the known leaves only. */
export function readEnvOverlay(leaves: readonly ConfigLeaf[], env: NodeJS.ProcessEnv): EnvOverlay {
  const values: Record<string, unknown> = {};
  const sources = new Map<string, string>();
  for (const leaf of leaves) {
    if (leaf.kind === 'other') continue;
    const name = envName(leaf.path);
    const raw = env[name];
    if (raw === undefined) continue;
    let target = values;
    for (const segment of leaf.path.slice(0, -1)) {
      target[segment] ??= {};
      target = target[segment] as Record<string, unknown>;
    }
    target[leaf.path[leaf.path.length - 1] as string] = coerce(raw, leaf);
    sources.set(leaf.path.join('.'), name);
  }
  return { values, sources };
}
