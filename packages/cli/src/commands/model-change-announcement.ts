import { ANNOUNCEMENT_TITLE_LIMIT, type CatalogueChange } from '@atrium/inference';

const DAY_MS = 86_400_000;

export interface ModelChangeAnnouncement {
  kind: 'model_change';
  title: string;
  body: string;
  /** ISO times, to the minute. */
  starts: string;
  ends: string;
}

const minute = (ms: number) => new Date(ms).toISOString().slice(0, 16);

/** A "model change" announcement of what a reload changed, on the status page from now for a week. */
export function modelChangeAnnouncement(change: CatalogueChange, now: number): ModelChangeAnnouncement {
  const parts = [
    change.added.length > 0 ? `${change.added.join(', ')} added` : '',
    change.removed.length > 0 ? `${change.removed.join(', ')} removed` : '',
    change.changed.length > 0 ? `${change.changed.join(', ')} changed` : '',
  ].filter(Boolean);
  // Emails, the status page and its feed put the kind ("Model change") before the title themselves.
  const title = parts.join('; ');
  const them = (models: readonly string[]) => (models.length === 1 ? 'it' : 'them');
  const body = [
    change.added.length > 0 ? `New: ${change.added.join(', ')}. GET /v1/models lists ${them(change.added)}.` : '',
    change.removed.length > 0
      ? `No longer served: ${change.removed.join(', ')}. Requests naming ${them(change.removed)} are refused (404 model_not_found); choose another model from GET /v1/models.`
      : '',
    change.changed.length > 0 ? `Changed settings: ${change.changed.join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    kind: 'model_change',
    title: title.length > ANNOUNCEMENT_TITLE_LIMIT ? `${title.slice(0, ANNOUNCEMENT_TITLE_LIMIT - 1)}…` : title,
    body,
    starts: minute(now),
    ends: minute(now + 7 * DAY_MS),
  };
}

const shellQuoted = (value: string) => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

/** The `atrium inference announce` command that posts it. */
export const announceCommand = (a: ModelChangeAnnouncement): string =>
  [
    'atrium inference announce',
    ...[
      ['--kind', a.kind],
      ['--title', a.title],
      ['--body', a.body],
      ['--start', `${a.starts}Z`],
      ['--end', `${a.ends}Z`],
    ].map(([flag, value]) => `${flag} ${shellQuoted(value as string)}`),
  ].join(' ');

/** The operator UI's announcement form, filled in (its times are UTC). */
export function announceUrl(base: string, a: ModelChangeAnnouncement): string {
  const query = new URLSearchParams({ kind: a.kind, title: a.title, body: a.body, starts: a.starts, ends: a.ends });
  return `${base}/ui/operator/announcements?${query}`;
}
