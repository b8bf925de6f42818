import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Bench, outboxOf } from './harness.js';

const ATRIUM_BIN = fileURLToPath(new URL('../../cli/bin/atrium.mjs', import.meta.url));

/** `atrium bench …`, the real client, as a subprocess with no inherited ATRIUM_* settings. */
export function atriumBench(
  args: string[],
  options: { cwd?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(ATRIUM_|BENCHER_|CI$|GITHUB_)/.test(key)),
  );
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [ATRIUM_BIN, 'bench', ...args],
      { env, cwd: options.cwd },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

/** The newest link matching `pattern` in a message to `email` in the outbox (no SMTP configured). */
export async function mailedLink(bench: Bench, email: string, pattern: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const message = (await outboxOf(bench, 20)).find((m) => m.recipient === email && pattern.test(m.body));
    const link = message && pattern.exec(message.body)?.[1];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no mail to ${email} with ${pattern}`);
}

/** The confirmation link of the newest message to `email` in the outbox. */
export const confirmationLink = (bench: Bench, email: string) =>
  mailedLink(bench, email, /(https?:\/\/\S+\/auth\/confirm\?token=\S+)/);
