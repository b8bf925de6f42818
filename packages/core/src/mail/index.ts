export { OutboxMailer } from './mailer.js';
export {
  type DueMessage,
  latestOutbox,
  type NewOutboxMessage,
  type OutboxDatabase,
  type OutboxMessage,
  type OutboxStatus,
  type OutboxTable,
  queueEmails,
} from './outbox.js';
export { createOutboxTable } from './outbox-table.js';
export { type SmtpConfig, smtpSchema } from './smtp.js';
