import { chromiumAvailable, launchChromium, rawHttp } from '@atrium/core/testing';
import type { Kysely } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InferenceDatabase } from '../src/storage/schema.js';
import { postAnnouncement, when } from '../src/tenancy/announcements.js';
import { statusFeed, xmlText } from '../src/ui/status-feed.js';
import { DAY } from './support/tenancy.js';
import { startUiApp, type UiApp } from './support/ui-app.js';

/** The browser's DOM as far as this test uses it inside the page (the test project compiles without the DOM library). */
interface XmlElement {
  namespaceURI: string | null;
  localName: string;
  textContent: string | null;
  children: Iterable<XmlElement>;
  getAttribute(name: string): string | null;
}
declare const DOMParser: new () => {
  parseFromString(
    text: string,
    type: string,
  ): { documentElement: XmlElement; getElementsByTagName(name: string): XmlElement[] };
};

const NASTY_TITLE = `<b>Tom & Jerry's "GPU"</b> ]]> \u0001done`;
const NASTY_BODY = 'Line one\nline two <script>alert(1)</script> \u000b\u{1F680}';

describe('XML text', () => {
  it.each([
    ['plain', 'plain'],
    [`<a href="x">&'`, '&lt;a href=&quot;x&quot;&gt;&amp;&apos;'],
    ['tab\tnewline\ncarriage\r', 'tab\tnewline\ncarriage\r'],
    ['nul\u0000 bell\u0007 vt\u000b ff\u000c esc\u001b', 'nul bell vt ff esc'],
    ['lone \uD800 high, lone \uDC00 low', 'lone  high, lone  low'],
    ['pair \u{1F680} kept, \uFFFE\uFFFF dropped', 'pair \u{1F680} kept,  dropped'],
  ])('%j', (text, expected) => {
    expect(xmlText(text)).toBe(expected);
  });
});

describe('status feed document', () => {
  it('an empty feed is still a whole feed; ids and links follow the status page URL', () => {
    const feed = statusFeed({
      pageUrl: 'https://status.example.org/ui/status',
      feedUrl: 'https://status.example.org/ui/status.atom',
      authority: 'status.example.org',
      announcements: [],
    });
    expect(feed).toContain('<id>tag:status.example.org,2026:inference-status</id>');
    expect(feed).toContain('<updated>1970-01-01T00:00:00Z</updated>');
    expect(feed).toContain(
      '<link rel="self" type="application/atom+xml" href="https://status.example.org/ui/status.atom"/>',
    );
    expect(feed).not.toContain('<entry>');
  });
});

describe('public status page and its Atom feed', () => {
  let app: UiApp<undefined>;
  let browser: Browser | undefined;
  const now = Date.now();

  const seed = async (db: Kysely<InferenceDatabase>) => {
    const post = (kind: string, title: string, body: string, starts: number, ends: number, created: number) =>
      postAnnouncement(db, null, { kind, title, body, starts, ends }, created);
    await post('maintenance', 'Driver update', 'One restart.', now + DAY, now + DAY + 3_600_000, now - 2 * DAY);
    await post('incident', NASTY_TITLE, NASTY_BODY, now - 3_600_000, now + 3_600_000, now - DAY);
    await post('model_change', 'acme/old removed', '', now - 5 * DAY, now - 4 * DAY, now - 6 * DAY);
    return undefined;
  };

  beforeAll(async () => {
    app = await startUiApp(seed);
    if (chromiumAvailable) browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('the page needs no sign-in, lists current, upcoming and past announcements, and links the feed', async () => {
    const response = await fetch(`${app.base}/ui/status`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain(
      '<link rel="alternate" type="application/atom+xml" title="Atrium inference status" href="/ui/status.atom">',
    );
    expect(page).toContain('Incident: &lt;b&gt;Tom &amp; Jerry&#39;s &quot;GPU&quot;&lt;/b&gt;');
    expect(page).toMatch(/<h2>Upcoming<\/h2><ul><li id="announcement-\d+"><strong>Planned maintenance: Driver update/);
    expect(page).toMatch(/<h2>Past 30 days<\/h2><ul><li id="announcement-\d+"><strong>Model change: acme\/old removed/);
  });

  it('the feed needs no sign-in and is Atom 1.0 with every announcement, newest first, text escaped', async () => {
    const response = await fetch(`${app.base}/ui/status.atom`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const xml = await response.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">')).toBe(
      true,
    );
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain('\u0001');
  });

  it.each([
    ['a b', 400],
    ['x"><y', 400],
    ['[::1', 400],
    ['[zz]', 400],
    ['example.org:99999', 400],
    ['a/b', 400],
    ['', 400],
    ['status.example.org:8443', 200],
    ['[::1]:8000', 200],
  ])('Host %j: %i (the feed builds its links on it)', async (host, status) => {
    const response = await rawHttp(app.base, [
      `GET /ui/status.atom HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    ]);
    expect(response.status).toBe(status);
    if (status === 200) expect(response.body).toContain(`href="http://${host}/ui/status.atom"`);
  });

  it.skipIf(!chromiumAvailable)('a browser finds the feed from the page and its XML parser reads it', async () => {
    const page = await (browser as Browser).newPage();
    try {
      await page.goto(`${app.base}/ui/status`);
      const href = await page
        .locator('link[rel="alternate"][type="application/atom+xml"]')
        .evaluate((l) => (l as unknown as { href: string }).href);
      expect(href).toBe(`${app.base}/ui/status.atom`);
      const xml = await (await fetch(href)).text();
      await page.goto('about:blank');
      const feed = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'application/xml');
        const error = doc.getElementsByTagName('parsererror')[0];
        if (error) return { error: error.textContent };
        const ns = 'http://www.w3.org/2005/Atom';
        const root = doc.documentElement;
        const child = (el: XmlElement, name: string) =>
          [...el.children].filter((c) => c.namespaceURI === ns && c.localName === name);
        const text1 = (el: XmlElement, name: string) => child(el, name)[0]?.textContent ?? null;
        return {
          root: `${root.namespaceURI} ${root.localName}`,
          id: text1(root, 'id'),
          title: text1(root, 'title'),
          updated: text1(root, 'updated'),
          author: child(root, 'author')[0] ? text1(child(root, 'author')[0] as XmlElement, 'name') : null,
          links: child(root, 'link').map(
            (l) => `${l.getAttribute('rel')} ${l.getAttribute('type')} ${l.getAttribute('href')}`,
          ),
          entries: child(root, 'entry').map((e) => ({
            id: text1(e, 'id'),
            title: text1(e, 'title'),
            updated: text1(e, 'updated'),
            content: text1(e, 'content'),
            link: child(e, 'link')[0]?.getAttribute('href'),
          })),
        };
      }, xml);
      expect(feed).not.toHaveProperty('error');
      expect(feed).toMatchObject({
        root: 'http://www.w3.org/2005/Atom feed',
        id: 'tag:127.0.0.1,2026:inference-status',
        title: 'Atrium inference status',
        updated: when(now - DAY),
        author: 'Atrium inference',
        links: [`self application/atom+xml ${app.base}/ui/status.atom`, `alternate text/html ${app.base}/ui/status`],
      });
      const entries = (
        feed as { entries: { id: string; title: string; updated: string; content: string; link: string }[] }
      ).entries;
      expect(entries.map((e) => e.title)).toEqual([
        `Incident: <b>Tom & Jerry's "GPU"</b> ]]> done`,
        'Planned maintenance: Driver update',
        'Model change: acme/old removed',
      ]);
      expect(entries[0]?.content).toBe(
        `Incident from ${when(now - 3_600_000)} to ${when(now + 3_600_000)}.\n\nLine one\nline two <script>alert(1)</script> \u{1F680}`,
      );
      expect(entries[0]?.updated).toBe(when(now - DAY));
      expect(new Set(entries.map((e) => e.id)).size).toBe(3);
      for (const entry of entries) {
        expect(entry.id).toMatch(/^tag:127\.0\.0\.1,2026:announcement-\d+-\d+$/);
        expect(entry.link).toMatch(new RegExp(`^${app.base}/ui/status#announcement-\\d+$`));
      }
    } finally {
      await page.close();
    }
  });
});
