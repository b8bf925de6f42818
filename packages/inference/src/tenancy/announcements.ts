import { latestOutbox, queueEmails } from '@atrium/core';
import type { Kysely } from 'kysely';
import type { Account } from '../storage/accounts.js';
import { latestDeliveries, queueDeliveries } from '../storage/announcement-deliveries.js';
import { insertAnnouncement, subscriberEmails } from '../storage/announcements.js';
import type { AnnouncementTable, InferenceDatabase } from '../storage/schema.js';
import { invalid, refused } from './errors.js';

export const ANNOUNCEMENT_KINDS: readonly AnnouncementTable['kind'][] = ['maintenance', 'incident', 'model_change'];
/** The longest title an announcement may have. */
export const ANNOUNCEMENT_TITLE_LIMIT = 200;
const KIND_LABEL = { maintenance: 'Planned maintenance', incident: 'Incident', model_change: 'Model change' } as const;

export interface NewAnnouncement {
  kind: string;
  title: string;
  body: string;
  starts: number;
  ends: number;
}

/** How the emails of an announcement go out: queued for the SMTP mailer, or kept in the outbox to be read. */
export type Delivery = 'smtp' | 'outbox';

/** A time as announcements show it: ISO 8601 in UTC, to the second. */
export const when = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * Posts an announcement, queues one email per subscriber in the outbox and one delivery per configured chat
 * channel, in one transaction (`operator` null: the operator CLI). Sending is left to the mailer and the channel
 * sender, so posting never waits for SMTP or a chat server.
 */
export async function postAnnouncement(
  db: Kysely<InferenceDatabase>,
  operator: Account | null,
  input: NewAnnouncement,
  now = Date.now(),
  delivery: Delivery = 'outbox',
  channels: readonly string[] = [],
) {
  if (operator && operator.is_admin !== 1) throw refused('only operators post announcements');
  if (!ANNOUNCEMENT_KINDS.includes(input.kind as AnnouncementTable['kind']))
    throw invalid(`kind must be one of ${ANNOUNCEMENT_KINDS.join(', ')}`, 'kind');
  const title = input.title.trim();
  if (title === '' || title.length > ANNOUNCEMENT_TITLE_LIMIT)
    throw invalid(`the title is required (at most ${ANNOUNCEMENT_TITLE_LIMIT} characters)`, 'title');
  if (!(Number.isFinite(input.starts) && input.ends > input.starts))
    throw invalid('the announcement must end after it starts', 'ends');
  const kind = input.kind as AnnouncementTable['kind'];
  return db.transaction().execute(async (trx) => {
    const announcement = await insertAnnouncement(trx, {
      kind,
      title,
      body: input.body.trim(),
      starts: input.starts,
      ends: input.ends,
      created: now,
    });
    const subject = `[Atrium inference] ${KIND_LABEL[kind]}: ${title}`;
    const body = `${KIND_LABEL[kind]} from ${when(input.starts)} to ${when(input.ends)}.\n\n${announcement.body}\n\nYou receive this because you have access to a project with an inference resource; you can opt out in the web UI.`;
    const recipients = await subscriberEmails(trx);
    await queueEmails<InferenceDatabase>(
      trx,
      recipients.map((recipient) => ({
        recipient,
        subject,
        body,
        created: now,
        status: delivery === 'smtp' ? 'queued' : 'outbox',
      })),
    );
    await queueDeliveries(trx, announcement.id, channels, now);
    return { announcement, recipients: recipients.length, channels: channels.length };
  });
}

export const kindLabel = (kind: AnnouncementTable['kind']): string => KIND_LABEL[kind];

/** One line of the outbox as the operator CLI lists it: a chat-channel delivery or an email. */
export interface OutboxEntry {
  type: 'channel' | 'email';
  /** The channel's name or the recipient's email. */
  to: string;
  subject: string;
  status: string;
  attempts: number;
  last_error: string | null;
  created: number;
  sent_at: number | null;
}

/** The newest `limit` channel deliveries, then the newest `limit` emails. */
export async function outboxEntries(db: Kysely<InferenceDatabase>, limit: number): Promise<OutboxEntry[]> {
  const [deliveries, emails] = await Promise.all([latestDeliveries(db, limit), latestOutbox(db, limit)]);
  const entry = (
    type: OutboxEntry['type'],
    to: string,
    subject: string,
    row: Omit<OutboxEntry, 'type' | 'to' | 'subject'>,
  ) => ({
    type,
    to,
    subject,
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    created: row.created,
    sent_at: row.sent_at,
  });
  return [
    ...deliveries.map((d) => entry('channel', d.channel, `${kindLabel(d.kind)}: ${d.title}`, d)),
    ...emails.map((m) => entry('email', m.recipient, m.subject, m)),
  ];
}
