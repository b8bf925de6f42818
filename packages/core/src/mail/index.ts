export { DeliveryRounds } from './delivery-rounds.js';
export { leasedRows } from './leased-rows.js';
export { OutboxMailer } from './mailer.js';
export {
  claimMessage,
  type DueMessage,
  dueMessages,
  latestOutbox,
  markAttemptFailed,
  markSent,
  type NewOutboxMessage,
  type OutboxDatabase,
  type OutboxMessage,
  type OutboxStatus,
  type OutboxTable,
  outboxOf,
  queueEmails,
} from './outbox.js';
export { createOutboxTable } from './outbox-table.js';
export { type SmtpConfig, smtpSchema } from './smtp.js';
