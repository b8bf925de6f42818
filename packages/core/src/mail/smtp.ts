import { z } from 'zod';

/** An SMTP server for the outbox mailer (`[inference.smtp]`, `[bench.smtp]`). */
export const smtpSchema = z
  .strictObject({
    host: z.string().min(1),
    port: z.number().int().min(1).max(65_535).default(587),
    /** `starttls`: plain connection upgraded with STARTTLS, required (port 587); `tls`: TLS from the start (port 465); `none`: never TLS (a local relay). */
    security: z.enum(['starttls', 'tls', 'none']).default('starttls'),
    user: z.string().min(1).optional(),
    /** Never logged; the service's `…_SMTP_PASSWORD` environment variable keeps it out of the config file. */
    password: z.string().min(1).optional(),
    /** The sender, e.g. `Atrium <atrium@example.org>`. */
    from: z.string().min(3),
    /** Attempts per message before it is marked failed. */
    attempts: z.number().int().min(1).max(20).default(4),
    /** Wait before the first retry; it doubles for each later one. */
    retryDelayMs: z.number().int().positive().default(60_000),
    /** How often queued messages are looked for (command-line tools queue them too). */
    pollIntervalMs: z.number().int().positive().default(10_000),
  })
  .check((ctx) => {
    if ((ctx.value.user === undefined) !== (ctx.value.password === undefined))
      ctx.issues.push({
        code: 'custom',
        message: 'user and password go together',
        input: undefined, // never echo the password in the config error
        path: [ctx.value.user === undefined ? 'user' : 'password'],
      });
  });

export type SmtpConfig = z.infer<typeof smtpSchema>;
