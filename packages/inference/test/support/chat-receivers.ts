import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver saw. */
export interface ReceivedPost {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/** What a receiver does with its next requests: answer with a status, or never answer (`'hang'`). */
export type Answer = number | 'hang';

/**
 * A local HTTP server that records every request and answers from a script (`answers`, consumed in order;
 * then `fallback`). `accept` decides whether a request is for it at all (404 otherwise, like a wrong webhook).
 */
class Receiver {
  readonly received: ReceivedPost[] = [];
  readonly answers: Answer[] = [];
  fallback: Answer = 200;
  private readonly hanging = new Set<ServerResponse>();

  protected constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  protected static async listen<T extends Receiver>(
    make: (server: Server, origin: string) => T,
    handle: (receiver: T, request: IncomingMessage, post: ReceivedPost) => [number, unknown] | undefined,
  ): Promise<T> {
    let receiver: T | undefined;
    const server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      const post = {
        method: request.method ?? '',
        path: request.url ?? '',
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        body,
      };
      const self = receiver as T;
      self.received.push(post);
      const refusal = handle(self, request, post);
      const answer = refusal ? refusal[0] : (self.answers.shift() ?? self.fallback);
      if (answer === 'hang') {
        self.hanging.add(response);
        return;
      }
      const payload = refusal?.[1] ?? (answer === 200 ? self.okBody(post) : { error: `scripted ${answer}` });
      response.writeHead(answer, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = make(server, `http://127.0.0.1:${port}`);
    return receiver;
  }

  protected okBody(_post: ReceivedPost): unknown {
    return 'ok';
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** A Slack-style incoming webhook at `/services/<token>`: POST `{"text": …}` as JSON, answers `ok`. */
export class WebhookReceiver extends Receiver {
  static start(token: string): Promise<WebhookReceiver> {
    return Receiver.listen(
      (server, origin) => new WebhookReceiver(server, origin, `${origin}/services/${token}`),
      (_self, _request, post) => {
        if (post.method !== 'POST' || post.path !== `/services/${token}`) return [404, 'no_service'];
        if (post.contentType !== 'application/json') return [400, 'invalid_payload'];
        const text = (post.body as { text?: unknown }).text;
        if (typeof text !== 'string' || text === '') return [400, 'no_text'];
        return undefined;
      },
    );
  }

  private constructor(
    server: Server,
    origin: string,
    /** The webhook URL (it holds the token). */
    readonly url: string,
  ) {
    super(server, origin);
  }
}

/**
 * A Matrix homeserver stub for `PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}`: checks the
 * bearer token and the room, and answers a repeated transaction id with the event id of the first (idempotent).
 */
export class MatrixStub extends Receiver {
  /** Room events by transaction id, as the homeserver would store them once. */
  readonly events = new Map<string, unknown>();
  /** The transaction id of every request, in order. */
  readonly txnIds: string[] = [];

  static start(token: string, room: string): Promise<MatrixStub> {
    const prefix = `/_matrix/client/v3/rooms/${encodeURIComponent(room)}/send/m.room.message/`;
    return Receiver.listen(
      (server, origin) => new MatrixStub(server, origin),
      (self, _request, post) => {
        if (post.authorization !== `Bearer ${token}`)
          return [401, { errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token passed.' }];
        if (post.method !== 'PUT' || !post.path.startsWith(prefix))
          return [404, { errcode: 'M_UNRECOGNIZED', error: 'Unrecognized request' }];
        self.txnIds.push(decodeURIComponent(post.path.slice(prefix.length)));
        return undefined;
      },
    );
  }

  protected override okBody(post: ReceivedPost): unknown {
    const txnId = this.txnIds[this.txnIds.length - 1] as string;
    if (!this.events.has(txnId)) this.events.set(txnId, post.body);
    return { event_id: `$event-${[...this.events.keys()].indexOf(txnId)}` };
  }
}
