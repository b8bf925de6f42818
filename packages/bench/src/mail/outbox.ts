import { type Logger, OutboxMailer, queueEmails, type SmtpConfig } from '@atrium/core';
import type { Kysely } from 'kysely';
import type { BenchDatabase } from '../storage/schema.js';

/**
 * Bench's mail (confirmation links, invitations) through Atrium's one mailer: every message is stored in the
 * `outbox` table; with `[bench.smtp]` the background mailer sends it (retries with backoff), without it the
 * message stays there for `atrium bench admin outbox`. Unlike Bencher, which logs messages, the log never holds
 * the tokens they carry.
 */

export interface Message {
  to: string;
  subject: string;
  text: string;
}

/** Header values on one line: control characters (a hostile name's newlines) become spaces. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: exactly what is being removed
const oneLine = (value: string) => value.replace(/[\x00-\x1f\x7f]+/g, ' ');

export class BenchMail {
  private readonly mailer: OutboxMailer | undefined;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Kysely<BenchDatabase>,
    smtp: SmtpConfig | undefined,
    private readonly logger: Pick<Logger, 'warn' | 'error'>,
    private readonly clock: () => number = Date.now,
  ) {
    this.mailer = smtp ? new OutboxMailer(db, smtp, logger, clock, 'bench email') : undefined;
  }

  /** Sends anything queued before (by a command-line tool or an earlier process), then keeps polling. */
  start(): void {
    this.mailer?.start();
  }

  /** Stores the message for delivery (or for the outbox). */
  async send(message: Message): Promise<void> {
    await queueEmails(this.db, [
      {
        recipient: oneLine(message.to),
        subject: oneLine(message.subject),
        body: message.text,
        created: this.clock(),
        status: this.mailer ? 'queued' : 'outbox',
      },
    ]);
    this.mailer?.kick();
  }

  /** `send` without waiting: the answer takes as long whether or not a message goes out. */
  sendInBackground(message: Message): void {
    const sending: Promise<void> = this.send(message)
      .catch((error: unknown) =>
        this.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'bench email not stored'),
      )
      .finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }

  /** Waits for messages being stored, then stops the mailer. */
  async close(): Promise<void> {
    await Promise.all(this.pending);
    await this.mailer?.close();
  }
}
