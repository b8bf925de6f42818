import type { Announcement } from '../storage/announcements.js';
import { kindLabel, when } from '../tenancy/announcements.js';

/** XML 1.0's `Char` production: no C0 controls but tab and newlines, no lone surrogates, no U+FFFE/U+FFFF. */
const isXmlChar = (c: number) =>
  c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || c >= 0x10000;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text as XML character data or an attribute value: markup escaped, characters XML cannot hold dropped. */
export const xmlText = (text: string) =>
  Array.from(text)
    .filter((ch) => isXmlChar(ch.codePointAt(0) ?? 0))
    .join('')
    .replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

export interface StatusFeedView {
  /** The status page's absolute URL; the feed is `status.atom` next to it. */
  pageUrl: string;
  feedUrl: string;
  /** The host that names the feed's and entries' ids (`tag:` URIs, RFC 4151). */
  authority: string;
  announcements: readonly Announcement[];
}

/** The anchor of an announcement on the status page. */
export const announcementAnchor = (a: Pick<Announcement, 'id'>) => `announcement-${a.id}`;

/** An Atom 1.0 feed (RFC 4287) of the announcements, newest first. */
export function statusFeed(view: StatusFeedView): string {
  const tag = (specific: string) => `tag:${view.authority},2026:${specific}`;
  const updated = view.announcements.reduce((latest, a) => Math.max(latest, a.created), 0);
  const entries = view.announcements.map((a) => {
    const content = `${kindLabel(a.kind)} from ${when(a.starts)} to ${when(a.ends)}.${a.body ? `\n\n${a.body}` : ''}`;
    return `<entry>
<id>${xmlText(tag(`announcement-${a.id}-${a.created}`))}</id>
<title type="text">${xmlText(`${kindLabel(a.kind)}: ${a.title}`)}</title>
<published>${when(a.created)}</published>
<updated>${when(a.created)}</updated>
<link rel="alternate" type="text/html" href="${xmlText(`${view.pageUrl}#${announcementAnchor(a)}`)}"/>
<category term="${a.kind}" label="${xmlText(kindLabel(a.kind))}"/>
<content type="text">${xmlText(content)}</content>
</entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${xmlText(tag('inference-status'))}</id>
<title type="text">Atrium inference status</title>
<subtitle type="text">Planned maintenance, incidents and model changes</subtitle>
<updated>${when(updated)}</updated>
<author><name>Atrium inference</name></author>
<link rel="self" type="application/atom+xml" href="${xmlText(view.feedUrl)}"/>
<link rel="alternate" type="text/html" href="${xmlText(view.pageUrl)}"/>
${entries.join('\n')}
</feed>
`;
}
