import { lastDayBefore } from '@atrium/inference';

type Row = Record<string, unknown>;

const day = (ms: unknown) => (typeof ms === 'number' ? new Date(ms).toISOString().slice(0, 10) : '-');
const time = (ms: unknown) => (typeof ms === 'number' ? new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') : '-');
const text = (value: unknown) => (value === null || value === undefined ? '-' : String(value));

/** The columns of each listing: header and how to show a row's value. */
const COLUMNS: Record<string, [string, (row: Row) => string][]> = {
  'list-keys': [
    ['PROJECT', (k) => text(k.project)],
    ['ALIAS', (k) => text(k.alias)],
    ['KEY', (k) => `…${text(k.secret_hint)}`],
    ['BUDGET', (k) => (k.budget_tokens === null ? 'unlimited' : text(k.budget_tokens))],
    ['PERIOD', (k) => text(k.reset_period)],
    ['USED', (k) => text(k.period_used)],
    ['MODELS', (k) => (Array.isArray(k.allowed_models) ? k.allowed_models.join(',') : 'all')],
    ['LIMITS', (k) => [k.requests_per_minute, k.tokens_per_minute].map(text).join('/')],
    ['EXPIRES', (k) => (typeof k.expires === 'number' ? lastDayBefore(k.expires) : '-')],
    ['CREATED', (k) => `${day(k.created)} ${text(k.created_by ?? 'operator')}`],
    ['STATE', (k) => (k.revoked === null ? text(k.state) : `revoked ${day(k.revoked)}`)],
    ['ID', (k) => text(k.id)],
  ],
  'list-projects': [
    ['NAME', (p) => text(p.name)],
    ['ORGANISATION', (p) => text(p.organisation)],
    ['MEMBERS', (p) => text(p.members)],
    ['LAST GRANT DAY', (p) => (typeof p.grant_ends === 'number' ? lastDayBefore(p.grant_ends) : '-')],
    ['RESOURCE', (p) => (p.resource_id === null ? 'none' : 'yes')],
  ],
  'list-resources': [
    ['PROJECT', (r) => text(r.project)],
    ['CREDITS', (r) => text(r.credits_total)],
    ['USED', (r) => text(r.credits_used)],
    ['RPM', (r) => text(r.requests_per_minute)],
    ['TPM', (r) => text(r.tokens_per_minute)],
    ['CONCURRENT', (r) => text(r.concurrent_requests)],
    ['ID', (r) => text(r.id)],
  ],
  outbox: [
    ['TYPE', (o) => text(o.type)],
    ['TO', (o) => text(o.to)],
    ['SUBJECT', (o) => text(o.subject)],
    ['STATUS', (o) => text(o.status)],
    ['ATTEMPTS', (o) => text(o.attempts)],
    ['QUEUED', (o) => time(o.created)],
    ['SENT', (o) => time(o.sent_at)],
    ['LAST ERROR', (o) => text(o.last_error)],
  ],
  usage: [
    ['GROUP', (u) => text(u.group)],
    ['REQUESTS', (u) => text(u.requests)],
    ['PROMPT', (u) => text(u.prompt_tokens)],
    ['COMPLETION', (u) => text(u.completion_tokens)],
    ['CREDITS', (u) => text(u.credits)],
  ],
};

/** A listing as an aligned text table; undefined for other commands. */
export function humanTable(command: string, result: unknown): string | undefined {
  if (command === 'revoke-key') return `revoked key '${(result as Row).alias}'\n`;
  if (command === 'edit-key') return `changed key '${(result as Row).alias}'\n`;
  const columns = COLUMNS[command];
  if (!columns || !Array.isArray(result)) return undefined;
  if (result.length === 0) return '(none)\n';
  const cells = [columns.map(([h]) => h), ...(result as Row[]).map((row) => columns.map(([, show]) => show(row)))];
  const widths = columns.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return `${cells
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}
