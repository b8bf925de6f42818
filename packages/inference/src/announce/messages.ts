import type { Announcement } from '../storage/announcements.js';
import { kindLabel, when } from '../tenancy/announcements.js';
import { escapeHtml } from '../ui/html.js';

/** Slack's mrkdwn treats only these three as control characters. */
const slackEscape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

const headline = (a: Announcement) => `${kindLabel(a.kind)}: ${a.title}`;
const period = (a: Announcement) => `${when(a.starts)} to ${when(a.ends)}`;

/** The `{"text": …}` of a Slack-compatible incoming webhook. */
export function slackText(a: Announcement, statusPageUrl: string | undefined): string {
  const lines = [`*${slackEscape(headline(a))}*`, period(a)];
  if (a.body) lines.push(slackEscape(a.body));
  if (statusPageUrl) lines.push(`<${slackEscape(statusPageUrl)}|Status page>`);
  return lines.join('\n');
}

/** An `m.room.message` event: plain text and the same as HTML. */
export function matrixMessage(a: Announcement, statusPageUrl: string | undefined) {
  const plain = [headline(a), period(a), a.body, statusPageUrl ? `Status page: ${statusPageUrl}` : '']
    .filter(Boolean)
    .join('\n');
  const html = [
    `<strong>${escapeHtml(headline(a))}</strong>`,
    escapeHtml(period(a)),
    a.body ? escapeHtml(a.body).replaceAll('\n', '<br>') : '',
    statusPageUrl ? `<a href="${escapeHtml(statusPageUrl)}">Status page</a>` : '',
  ]
    .filter(Boolean)
    .join('<br>');
  return { msgtype: 'm.text', body: plain, format: 'org.matrix.custom.html', formatted_body: html };
}
