import type { ApiKeyRow } from '../storage/api-keys.js';
import { fromMicro } from '../tenancy/pricing.js';
import type { DayUsage } from '../tenancy/usage-days.js';
import { type Html, html } from './html.js';
import { csrfField, keyLimitFields, time } from './pages.js';

/** A key's use per day (all models), with the CSV export of the same range per day and model. */
export function dailyUsage(keyId: string, days: readonly DayUsage[], rangeDays: number): Html {
  return html`<section><h2>Usage per day, last ${rangeDays} days</h2>
<p><a href="/ui/keys/${keyId}/usage.csv?days=${rangeDays}" download>Download CSV</a> (per day and model)</p>
${
  days.length === 0
    ? html`<p>No use in this range.</p>`
    : html`<table data-testid="daily-usage"><tr><th>Day</th><th>Requests</th><th>Prompt tokens</th><th>Completion tokens</th><th>Credits</th></tr>
${days.map((d) => html`<tr><td>${d.day}</td><td>${d.requests}</td><td>${d.promptTokens}</td><td>${d.completionTokens}</td><td>${fromMicro(d.credits)}</td></tr>`)}</table>`
}</section>`;
}

export interface ManageKeyView {
  key: ApiKeyRow;
  createdBy: string | null;
  models: readonly string[];
  csrf: string;
  days: readonly DayUsage[];
  rangeDays: number;
  error?: string | undefined;
  rotated?: string | undefined;
}

const PERIODS = ['day', 'week', 'month'];

/** A key's settings to edit, its rotation, and its use per day. */
export function manageKeyPage(view: ManageKeyView): Html {
  const { key, csrf } = view;
  const allowed = new Set(key.allowed_models ? (JSON.parse(key.allowed_models) as string[]) : []);
  const customDays = key.reset_period && !PERIODS.includes(key.reset_period) ? key.reset_period.slice(0, -1) : '';
  const rotated = view.rotated
    ? html`<section role="status"><h2>New secret for “${key.alias}”</h2>
<p>Copy the secret now: it is shown only this once. The old secret is refused from now on; the key keeps its settings and history.</p>
<p class="secret" id="secret" data-testid="secret">${view.rotated}</p><button type="button" id="copy">Copy</button></section>`
    : '';
  return html`${view.error ? html`<section class="error" role="alert">${view.error}</section>` : ''}${rotated}
<section><h2>API key “${key.alias}” <span class="muted">…${key.secret_hint}</span></h2>
<p>Created ${time(key.created)} by ${view.createdBy ?? 'an operator'}${key.rotated ? html`; secret rotated ${time(key.rotated)}` : ''}.</p>
${
  key.revoked
    ? html`<p><strong>Revoked ${time(key.revoked)}.</strong></p>`
    : html`<form method="post" action="/ui/keys/${key.id}/edit">${csrfField(csrf)}
<label>Alias <input name="alias" required maxlength="200" value="${key.alias}"></label>
<label>Token budget (optional) <input name="budget" inputmode="numeric" pattern="[0-9]*" value="${key.budget_tokens ?? ''}"></label>
<label>Reset period <select name="period"><option value="">never</option>${PERIODS.map(
        (p) => html`<option${key.reset_period === p ? html` selected` : ''}>${p}</option>`,
      )}</select>
or every <input name="days" size="4" inputmode="numeric" pattern="[0-9]*" value="${customDays}"> days</label>
${keyLimitFields(key)}
<fieldset><legend>Allowed models (none checked: all)</legend>${view.models.map(
        (m) =>
          html`<label><input type="checkbox" name="models" value="${m}"${allowed.has(m) ? html` checked` : ''}> ${m}</label>`,
      )}</fieldset><button class="primary">Save changes</button></form>
<form method="post" action="/ui/keys/${key.id}/rotate">${csrfField(csrf)}<p>Rotating gives the key a new secret and refuses the old one at once.</p><button>Rotate secret</button></form>`
}</section>
${dailyUsage(key.id, view.days, view.rangeDays)}`;
}
