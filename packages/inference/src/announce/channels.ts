import { readFileSync } from 'node:fs';
import { ConfigError } from '@atrium/core';
import type { ChannelConfig } from './channel-config.js';

/** A configured channel with its secret read: where a delivery goes. */
export type Channel =
  | { type: 'slack'; name: string; url: URL; secrets: string[] }
  | { type: 'matrix'; name: string; homeserver: string; room: string; token: string; secrets: string[] };

/** The secret a channel gives inline, in an environment variable or in a file. */
function secretOf(channel: Record<string, unknown>, field: string, env: NodeJS.ProcessEnv): string {
  const where = `inference.announce.channels '${channel.name}'`;
  const inline = channel[field];
  if (typeof inline === 'string') return inline;
  const variable = channel[`${field}Env`];
  if (typeof variable === 'string') {
    const value = env[variable]?.trim();
    if (!value) throw new ConfigError(`${where}: the environment variable ${variable} (${field}Env) is not set`);
    return value;
  }
  const file = channel[`${field}File`] as string;
  let value: string;
  try {
    value = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new ConfigError(
      `${where}: cannot read ${field}File ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
  if (!value) throw new ConfigError(`${where}: ${field}File ${file} is empty`);
  return value;
}

/** Reads each channel's secret; a missing or malformed one is a configuration error that never shows the secret. */
export function resolveChannels(configs: readonly ChannelConfig[], env: NodeJS.ProcessEnv = process.env): Channel[] {
  return configs.map((config): Channel => {
    if (config.type === 'matrix') {
      const token = secretOf(config, 'accessToken', env);
      return {
        type: 'matrix',
        name: config.name,
        homeserver: config.homeserver,
        room: config.room,
        token,
        secrets: [token],
      };
    }
    const raw = secretOf(config, 'url', env);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError(`inference.announce.channels '${config.name}': the webhook URL is not a URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new ConfigError(`inference.announce.channels '${config.name}': the webhook URL must be http(s)`);
    return {
      type: 'slack',
      name: config.name,
      url,
      secrets: [raw, url.pathname, url.search].filter((s) => s.length > 1),
    };
  });
}

/** Where a channel posts, without its secret: the type and host. */
export function channelDestination(config: ChannelConfig): string {
  if (config.type === 'matrix') return `Matrix room ${config.room} on ${new URL(config.homeserver).host}`;
  if (config.url === undefined) return 'Slack-compatible webhook';
  try {
    return `Slack-compatible webhook on ${new URL(config.url).host}`;
  } catch {
    return 'Slack-compatible webhook';
  }
}
