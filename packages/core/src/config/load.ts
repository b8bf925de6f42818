import { existsSync, readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import type { z } from 'zod';
import { readEnvOverlay } from './env.js';
import { ConfigError } from './errors.js';
import { deepMerge } from './merge.js';
import { configLeaves } from './schema-walk.js';

export interface LoadConfigOptions {
  /** Path of a TOML file; when absent, defaults and environment only. */
  file?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** Values that win over file and environment (command-line flags). */
  overrides?: Record<string, unknown>;
}

function readTomlFile(file: string): unknown {
  if (!existsSync(file)) throw new ConfigError(`config error: file ${file}: not found`);
  try {
    return parseToml(readFileSync(file, 'utf8'));
  } catch (error) {
    const detail = (error as Error).message.split('\n')[0];
    throw new ConfigError(`config error: file ${file}: invalid TOML: ${detail}`);
  }
}

function describeInput(input: unknown): string {
  if (input === undefined) return '';
  const text = JSON.stringify(input);
  return ` (got ${text && text.length > 60 ? `${text.slice(0, 57)}...` : text})`;
}

/** Loads file + `ATRIUM_*` environment + overrides and validates them; throws ConfigError naming the first bad key. */
export function loadConfig<S extends z.ZodType>(schema: S, options: LoadConfigOptions = {}): z.infer<S> {
  const fromFile = options.file ? readTomlFile(options.file) : {};
  const overlay = readEnvOverlay(configLeaves(schema), options.env ?? process.env);
  const merged = deepMerge(deepMerge(fromFile, overlay.values), options.overrides ?? {});
  const result = schema.safeParse(merged, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new ConfigError('config error: invalid configuration');
  const key = issue.path.join('.') || '(root)';
  const source = overlay.sources.get(key);
  const keys = issue.code === 'unrecognized_keys' ? ` ${issue.keys.join(', ')}` : '';
  const input = issue.code === 'unrecognized_keys' ? '' : describeInput(issue.input);
  throw new ConfigError(`config error: ${key}: ${issue.message}${keys}${input}${source ? ` [from ${source}]` : ''}`);
}
