import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Without a mail server, messages are delivered to files (mode 0600) in `<dataDir>/bench-outbox`, one
 * per message, for the operator to pass on. Unlike Bencher, which logs them, the log never holds the
 * credentials they carry.
 */

export interface Message {
  to: string;
  subject: string;
  text: string;
}

/** Header values on one line: control characters (a hostile name's newlines) become spaces. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: exactly what is being removed
const oneLine = (value: string) => value.replace(/[\x00-\x1f\x7f]+/g, ' ');

export const outboxDirectory = (dataDir: string) => join(dataDir, 'bench-outbox');

/** Writes the message and answers the file's path. */
export async function deliverToOutbox(dataDir: string, message: Message, now = new Date()): Promise<string> {
  const directory = outboxDirectory(dataDir);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const path = join(directory, `${now.toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
  const content = `To: ${oneLine(message.to)}\nSubject: ${oneLine(message.subject)}\n\n${message.text}\n`;
  await writeFile(path, content, { mode: 0o600, flag: 'wx' });
  return path;
}
