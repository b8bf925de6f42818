import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope. */
  from: string;
  to: string[];
  /** Header names lower-cased, folded lines joined. */
  headers: Map<string, string>;
  /** The text body, quoted-printable decoded. */
  body: string;
}

const rejection = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => `%${hex}`);
  return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/g, '%25'));
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = new Map<string, string>();
  for (const line of raw
    .slice(0, split)
    .replace(/\r\n(?=[ \t])/g, '')
    .split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const body = raw.slice(split + 4);
  const qp = headers.get('content-transfer-encoding') === 'quoted-printable';
  return { from, to, headers, body: (qp ? decodeQuotedPrintable(body) : body).replace(/\r\n/g, '\n').trimEnd() };
}

/**
 * A real SMTP server on loopback (plain, AUTH required) that keeps what it receives, and can be told to refuse
 * recipients, to fail the next messages with a given reply, or to hold messages until released.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  /** Per recipient, reply codes for its next messages' DATA, one each, in order. */
  readonly failures = new Map<string, number[]>();
  /** Recipients refused at RCPT TO, with the reply code. */
  readonly refused = new Map<string, number>();
  private held: Promise<void> | undefined;
  private release: (() => void) | undefined;

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(user: string, password: string): Promise<SmtpSink> {
    let sink: SmtpSink | undefined;
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, done) =>
        auth.username === user && auth.password === password
          ? done(null, { user })
          : done(rejection(535, 'Authentication failed')),
      onRcptTo: (address, _session, done) => {
        const code = sink?.refused.get(address.address);
        done(code ? rejection(code, 'No such mailbox') : null);
      },
      onData: (stream, session, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          await sink?.held;
          const envelope = session.envelope;
          const to = envelope.rcptTo.map((r) => r.address);
          const failure = sink?.failures.get(to[0] ?? '')?.shift();
          if (failure) return done(rejection(failure, 'Try again later'));
          const from = envelope.mailFrom ? envelope.mailFrom.address : '';
          sink?.received.push(parse(Buffer.concat(chunks).toString('utf8'), from, to));
          done();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    sink = new SmtpSink(server, (server.server.address() as AddressInfo).port);
    return sink;
  }

  /** Messages wait (after their data arrived) until `resume`. */
  hold(): void {
    this.held = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  resume(): void {
    this.release?.();
    this.held = undefined;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
