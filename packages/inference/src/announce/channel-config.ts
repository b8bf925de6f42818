import { z } from 'zod';

const channelName = z.string().regex(/^[\w.-]{1,64}$/, 'letters, digits, _ . - (at most 64)');

/** A secret is given inline, or named by an environment variable or a file holding it: exactly one of the three. */
function exactlyOneSource(field: string) {
  return (ctx: { value: Record<string, unknown>; issues: unknown[] }) => {
    const given = [field, `${field}Env`, `${field}File`].filter((key) => ctx.value[key] !== undefined);
    if (given.length !== 1)
      ctx.issues.push({
        code: 'custom',
        message: `give exactly one of ${field}, ${field}Env, ${field}File`,
        input: undefined, // never echo a secret in the config error
        path: [field],
      });
  };
}

/** A Slack-compatible incoming webhook (Slack, Mattermost, Rocket.Chat): `{"text": …}` POSTed as JSON. */
const slackChannel = z
  .strictObject({
    type: z.literal('slack'),
    name: channelName,
    /** The webhook URL; it holds the token, so `urlEnv` or `urlFile` keeps it out of the configuration. */
    url: z.string().min(1).optional(),
    urlEnv: z.string().min(1).optional(),
    urlFile: z.string().min(1).optional(),
  })
  .check(exactlyOneSource('url'));

/** A Matrix room, through the client-server API of its homeserver. */
const matrixChannel = z
  .strictObject({
    type: z.literal('matrix'),
    name: channelName,
    /** The homeserver's base URL, e.g. `https://matrix.example.org`. */
    homeserver: z.string().regex(/^https?:\/\/[^/?#]+$/, 'must be http(s)://host[:port] without a path'),
    /** The room id (`!abc:example.org`) the announcing account has joined. */
    room: z.string().regex(/^![^:\s]+:\S+$/, 'must be a room id such as !abc:example.org'),
    /** The announcing account's access token; `accessTokenEnv` or `accessTokenFile` keeps it out of the configuration. */
    accessToken: z.string().min(1).optional(),
    accessTokenEnv: z.string().min(1).optional(),
    accessTokenFile: z.string().min(1).optional(),
  })
  .check(exactlyOneSource('accessToken'));

export const channelSchema = z.discriminatedUnion('type', [slackChannel, matrixChannel]);

/** `[inference.announce]`: the chat channels every announcement is also posted to, by a background sender. */
export const announceSchema = z
  .strictObject({
    channels: z
      .array(channelSchema)
      .default([])
      .check((ctx) => {
        const seen = new Set<string>();
        for (const [i, channel] of ctx.value.entries()) {
          if (seen.has(channel.name))
            ctx.issues.push({
              code: 'custom',
              message: `duplicate channel name '${channel.name}'`,
              input: channel.name,
              path: [i, 'name'],
            });
          seen.add(channel.name);
        }
      }),
    /** The public status page, linked from every chat message and the base of the Atom feed's ids and links. */
    statusPageUrl: z
      .string()
      .regex(/^https?:\/\/[^?#]+$/, 'must be an http(s) URL')
      .optional(),
    /** Attempts per channel and announcement before the delivery is marked failed. */
    attempts: z.number().int().min(1).max(20).default(6),
    /** Wait before the first retry; it doubles for each later one. */
    retryDelayMs: z.number().int().positive().default(30_000),
    /** One attempt's limit, connection to answer. */
    timeoutMs: z.number().int().positive().default(10_000),
    /** How often pending deliveries are looked for (the operator CLI queues them too). */
    pollIntervalMs: z.number().int().positive().default(10_000),
  })
  .prefault({});

export type ChannelConfig = z.infer<typeof channelSchema>;
export type AnnounceConfig = z.infer<typeof announceSchema>;
