import type { Announcement } from '../storage/announcements.js';
import type { AnnounceConfig } from './channel-config.js';
import type { Channel } from './channels.js';
import { matrixMessage, slackText } from './messages.js';

const ERROR_TEXT_LIMIT = 200;
/** Of an answer's body only this much is read: enough for its error text, whatever the channel sends. */
const BODY_READ_LIMIT = 4_096;

/** A failed attempt; `permanent`: the channel refused it in a way a retry will not change (a 4xx but 408 and 429). */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** The stable Matrix transaction id of a delivery: a retry of it is the same event to the homeserver. */
const matrixTxnId = (deliveryId: number, announcement: Announcement) =>
  `atrium-announcement-${announcement.id}-${announcement.created}-${deliveryId}`;

/** The start of an answer's body, at most `limit` bytes; the rest is not read. */
async function bodyStart(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/** Cuts a channel's secrets out of a text (should a server or an error echo one). */
function redact(text: string, channel: Channel): string {
  return channel.secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}

/** Posts one announcement to one channel; throws a `DeliveryError` whose message holds no secret. */
export async function deliver(
  channel: Channel,
  deliveryId: number,
  announcement: Announcement,
  options: Pick<AnnounceConfig, 'statusPageUrl' | 'timeoutMs'> & { signal: AbortSignal },
): Promise<void> {
  const request: { url: URL; method: string; headers: Record<string, string>; body: unknown } =
    channel.type === 'slack'
      ? {
          url: channel.url,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: { text: slackText(announcement, options.statusPageUrl) },
        }
      : {
          url: new URL(
            `/_matrix/client/v3/rooms/${encodeURIComponent(channel.room)}/send/m.room.message/${encodeURIComponent(matrixTxnId(deliveryId, announcement))}`,
            channel.homeserver,
          ),
          method: 'PUT',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${channel.token}` },
          body: matrixMessage(announcement, options.statusPageUrl),
        };
  const host = request.url.host;
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: JSON.stringify(request.body),
      redirect: 'manual',
      signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.signal]),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${options.timeoutMs} ms`
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new DeliveryError(redact(`${host}: ${reason}`, channel), false);
  }
  const text = await bodyStart(response, BODY_READ_LIMIT).catch(() => '');
  if (response.ok) return;
  const detail = text.replace(/\s+/g, ' ').trim().slice(0, ERROR_TEXT_LIMIT);
  const permanent =
    response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429;
  throw new DeliveryError(redact(`${host}: HTTP ${response.status}${detail ? ` ${detail}` : ''}`, channel), permanent);
}
