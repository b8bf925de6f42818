import { HttpError } from '@atrium/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { latestAnnouncements, openAnnouncements, pastAnnouncements } from '../storage/announcements.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { html } from '../ui/html.js';
import { statusPage } from '../ui/pages.js';
import { statusFeed } from '../ui/status-feed.js';
import { sendPage } from './ui-reply.js';

const DAY_MS = 86_400_000;
const FEED_ENTRIES = 50;
const PAST_LISTED = 20;
/** A Host header the feed's absolute links can be built on: a name or an address, and a port. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export interface StatusOptions {
  /** The status page's public URL (behind a proxy); else taken from each request. */
  statusPageUrl: string | undefined;
  clock: () => number;
}

/**
 * The public status page `/ui/status` (no sign-in) and its Atom feed `/ui/status.atom`, linked from the page's head
 * for feed readers. Registered in the `/ui` scope.
 */
export function registerStatusRoutes(scope: FastifyInstance, db: Kysely<InferenceDatabase>, options: StatusOptions) {
  function pageUrlOf(request: FastifyRequest): URL {
    if (options.statusPageUrl) return new URL(options.statusPageUrl);
    if (HOST.test(request.host))
      try {
        return new URL(`${request.protocol}://${request.host}/ui/status`);
      } catch {} // a port over 65535, an address that is not one
    throw new HttpError(400, 'invalid_request', 'the Host header is not a host name');
  }

  scope.get('/status', async (_request, reply) => {
    const now = options.clock();
    const [open, past] = await Promise.all([
      openAnnouncements(db, now),
      pastAnnouncements(db, now, now - 30 * DAY_MS, PAST_LISTED),
    ]);
    sendPage(
      reply,
      'Status',
      statusPage({ open, past, now }),
      html`<a href="/ui/">Sign in</a>`,
      200,
      html`<link rel="alternate" type="application/atom+xml" title="Atrium inference status" href="/ui/status.atom">`,
    );
  });

  scope.get('/status.atom', async (request, reply) => {
    const pageUrl = pageUrlOf(request);
    const feed = statusFeed({
      pageUrl: pageUrl.href,
      feedUrl: new URL('status.atom', pageUrl).href,
      authority: pageUrl.hostname,
      announcements: await latestAnnouncements(db, FEED_ENTRIES),
    });
    reply
      .headers({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' })
      .type('application/atom+xml; charset=utf-8')
      .send(feed);
  });
}
