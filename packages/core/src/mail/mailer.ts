import type { Kysely } from 'kysely';
import { createTransport, type NodemailerError } from 'nodemailer';
import type { Logger } from '../log/logger.js';
import { DeliveryRounds } from './delivery-rounds.js';
import {
  claimMessage,
  type DueMessage,
  dueMessages,
  markAttemptFailed,
  markSent,
  type OutboxDatabase,
  outboxOf,
} from './outbox.js';
import type { SmtpConfig } from './smtp.js';

const BATCH = 20;
/** An attempt in progress keeps its message from the other processes this long. */
const LEASE_MS = 15 * 60_000;

/**
 * Sends the queued outbox messages through SMTP in the background: each message is claimed (so several processes
 * on one database send it once), sent, and marked sent or failed; a failure is retried with a doubling delay up to
 * `attempts` times, except a permanent refusal from the server. The password and message bodies are never logged.
 */
export class OutboxMailer<DB extends OutboxDatabase = OutboxDatabase> {
  private readonly transport;
  private readonly db: Kysely<OutboxDatabase>;
  private readonly rounds: DeliveryRounds;

  /** `db`: any service database with an `outbox` table; `what` names the messages in log lines. */
  constructor(
    db: Kysely<DB>,
    private readonly smtp: SmtpConfig,
    private readonly logger: Pick<Logger, 'warn' | 'error'>,
    private readonly clock: () => number = Date.now,
    private readonly what = 'announcement email',
  ) {
    this.db = outboxOf(db);
    this.rounds = new DeliveryRounds(
      () => this.deliverDue(),
      (error) => this.logger.error({ error: this.describe(error) }, `${this.what} delivery stopped`),
    );
    this.transport = createTransport({
      pool: true,
      maxConnections: 2,
      host: smtp.host,
      port: smtp.port,
      secure: smtp.security === 'tls',
      requireTLS: smtp.security === 'starttls',
      ignoreTLS: smtp.security === 'none',
      ...(smtp.user && smtp.password ? { auth: { user: smtp.user, pass: smtp.password } } : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      logger: false,
    });
  }

  /** Delivers what is queued now, then looks again every `pollIntervalMs`. */
  start(): void {
    this.rounds.start(this.smtp.pollIntervalMs);
  }

  /** Starts a delivery round (or another one right after the running one) without waiting for it. */
  kick(): void {
    this.rounds.kick();
  }

  async close(): Promise<void> {
    await this.rounds.close();
    this.transport.close();
  }

  private async deliverDue(): Promise<void> {
    for (;;) {
      const due = await dueMessages(this.db, this.clock(), BATCH);
      await Promise.all(due.map((message) => this.attempt(message)));
      if (due.length < BATCH || this.rounds.closed) return;
    }
  }

  private async attempt(message: DueMessage): Promise<void> {
    if (!(await claimMessage(this.db, message, this.clock() + LEASE_MS))) return;
    const attempt = message.attempts + 1;
    try {
      await this.transport.sendMail({
        from: this.smtp.from,
        to: message.recipient,
        subject: message.subject,
        text: message.body,
      });
      await markSent(this.db, message.id, this.clock());
    } catch (error) {
      const reason = this.describe(error);
      const last = (error as NodemailerError).permanent === true || attempt >= this.smtp.attempts;
      const retryAt = last ? undefined : this.clock() + this.smtp.retryDelayMs * 2 ** (attempt - 1);
      await markAttemptFailed(this.db, message.id, reason, retryAt);
      const fields = { outbox_id: message.id, attempt, error: reason };
      if (last) this.logger.error(fields, `${this.what} failed`);
      else this.logger.warn(fields, `${this.what} failed; it will be retried`);
    }
  }

  /** The error's message, with the password cut out should a server ever echo it. */
  private describe(error: unknown): string {
    const text = error instanceof Error ? error.message : String(error);
    return this.smtp.password ? text.split(this.smtp.password).join('[redacted]') : text;
  }
}
