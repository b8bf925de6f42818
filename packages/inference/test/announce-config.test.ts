import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@atrium/core';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveChannels } from '../src/announce/channels.js';
import { inferenceConfigSchema } from '../src/index.js';

const SECRET = 'https://hooks.example.org/services/T1/B1/secret-hook-0042';
const HOMESERVER = 'https://matrix.example.org';
const channels = (...list: unknown[]) => ({ announce: { channels: list } });

describe('[[inference.announce.channels]]', () => {
  it.each([
    [{ type: 'slack', name: 'ops', url: SECRET }],
    [{ type: 'slack', name: 'ops', urlEnv: 'OPS_HOOK' }],
    [{ type: 'slack', name: 'ops.chat_1', urlFile: '/run/secrets/hook' }],
    [{ type: 'matrix', name: 'ops', homeserver: HOMESERVER, room: '!abc:example.org', accessTokenEnv: 'T' }],
    [{ type: 'matrix', name: 'ops', homeserver: 'http://127.0.0.1:8008', room: '!a:b', accessTokenFile: '/t' }],
  ])('accepts %j', (channel) => {
    expect(inferenceConfigSchema.parse(channels(channel)).announce).toMatchObject({
      channels: [channel],
      attempts: 6,
      retryDelayMs: 30_000,
      timeoutMs: 10_000,
    });
  });

  it.each([
    [[{ type: 'slack', name: 'ops' }], 'give exactly one of url, urlEnv, urlFile'],
    [[{ type: 'slack', name: 'ops', url: SECRET, urlEnv: 'X' }], 'give exactly one of url, urlEnv, urlFile'],
    [[{ type: 'slack', name: 'two words', url: SECRET }], 'letters, digits'],
    [[{ type: 'irc', name: 'ops', url: SECRET }], 'type'],
    [[{ type: 'slack', name: 'ops', url: SECRET, token: 'x' }], 'token'],
    [[{ type: 'matrix', name: 'm', homeserver: HOMESERVER, room: '!a:b' }], 'give exactly one of accessToken'],
    [
      [{ type: 'matrix', name: 'm', homeserver: `${HOMESERVER}/path`, room: '!a:b', accessToken: 'x' }],
      'without a path',
    ],
    [[{ type: 'matrix', name: 'm', homeserver: HOMESERVER, room: '#alias:b', accessToken: 'x' }], 'room id'],
    [
      [
        { type: 'slack', name: 'ops', url: SECRET },
        { type: 'slack', name: 'ops', urlEnv: 'X' },
      ],
      "duplicate channel name 'ops'",
    ],
  ])('refuses %j without echoing a secret', (list, message) => {
    const result = inferenceConfigSchema.safeParse(channels(...list));
    expect(result.success).toBe(false);
    const issues = JSON.stringify(result.error?.issues);
    expect(issues).toContain(message);
    expect(issues).not.toContain('secret-hook');
  });
});

describe('reading channel secrets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-channels-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const parse = (channel: unknown) => inferenceConfigSchema.parse(channels(channel)).announce.channels;

  it('from the file, the environment or a file (trimmed)', () => {
    writeFileSync(join(dir, 'token'), '  syt_token-from-file \n');
    const resolved = resolveChannels(
      [
        ...parse({ type: 'slack', name: 'inline', url: SECRET }),
        ...parse({ type: 'slack', name: 'env', urlEnv: 'HOOK' }),
        ...parse({
          type: 'matrix',
          name: 'file',
          homeserver: HOMESERVER,
          room: '!a:b',
          accessTokenFile: join(dir, 'token'),
        }),
      ],
      { HOOK: `${SECRET}-env` },
    );
    expect(resolved.map((c) => (c.type === 'slack' ? c.url.href : c.token))).toEqual([
      SECRET,
      `${SECRET}-env`,
      'syt_token-from-file',
    ]);
  });

  it.each([
    [
      { type: 'slack', name: 'ops', urlEnv: 'MISSING_HOOK' },
      'the environment variable MISSING_HOOK (urlEnv) is not set',
    ],
    [{ type: 'slack', name: 'ops', urlFile: '/nonexistent/hook' }, 'cannot read urlFile /nonexistent/hook: ENOENT'],
    [{ type: 'slack', name: 'ops', url: 'not a url secret-hook-0042' }, 'the webhook URL is not a URL'],
    [{ type: 'slack', name: 'ops', url: 'ftp://example.org/secret-hook-0042' }, 'the webhook URL must be http(s)'],
    [
      { type: 'matrix', name: 'ops', homeserver: HOMESERVER, room: '!a:b', accessTokenEnv: 'EMPTY' },
      'the environment variable EMPTY (accessTokenEnv) is not set',
    ],
  ])('%j is a configuration error that shows no secret', (channel, message) => {
    let error: unknown;
    try {
      resolveChannels(parse(channel), { EMPTY: '  ' });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`inference.announce.channels 'ops': ${message}`);
    expect((error as Error).message).not.toContain('secret-hook');
  });
});
