import type { Announcement } from '../storage/announcements.js';
import type { ApiKeyRow } from '../storage/api-keys.js';
import type { DashboardProject } from '../storage/dashboard.js';
import type { InferenceResource } from '../storage/resources.js';
import type { ServiceRequest } from '../storage/service-requests.js';
import { kindLabel } from '../tenancy/announcements.js';
import { lastDayBefore } from '../tenancy/dates.js';
import type { PeriodWindow } from '../tenancy/period.js';
import { fromMicro } from '../tenancy/pricing.js';
import { PORTAL_CATEGORY, PORTAL_OFFERING, SERVICE_DESK_SERVICE } from '../tenancy/resources.js';
import { type ChartPoint, usageChart } from './chart.js';
import { type Html, html } from './html.js';
import { announcementAnchor } from './status-feed.js';

export const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const time = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
export const csrfField = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`;
export const errorBox = (error: string | undefined) =>
  error ? html`<section class="error" role="alert">${error}</section>` : '';

/** The operator pages under `/ui/operator/`, as the navigation lists them. */
export const OPERATOR_PAGES = {
  rates: 'Node-hour rates',
  resources: 'Credits and limits',
  models: 'Models',
  announcements: 'Announcements',
} as const;
export type OperatorPage = keyof typeof OPERATOR_PAGES;

const operatorNav = html`<nav aria-label="Operator"><a href="/ui/">Projects</a> ${Object.entries(OPERATOR_PAGES).map(
  ([path, title]) => html`<a href="/ui/operator/${path}">${title}</a> `,
)}</nav>`;

export const signOutNav = (csrf: string, who: string, isOperator = false) =>
  html`${isOperator ? operatorNav : ''}<a href="/ui/connect">Connect your client</a><span class="muted">${who}</span><form class="inline" method="post" action="/ui/signout">${csrfField(csrf)}<button>Sign out</button></form>`;

export function signInPage(csrf: string, error?: string, oidcName?: string): Html {
  return html`${errorBox(error)}${oidcName ? html`<section><a href="/ui/oidc/start" role="button">Sign in with ${oidcName}</a></section>` : ''}
<section><h2>Sign in</h2><form method="post" action="/ui/signin/password">${csrfField(csrf)}
<label>Email <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button>Sign in</button></form></section>
<section><h2>Sign in with access token</h2><p class="muted">Shows the usage of that API key only.</p>
<form method="post" action="/ui/signin/key">${csrfField(csrf)}
<label>API key <input name="key" type="password" autocomplete="off" required></label><button>Sign in with key</button></form></section>`;
}

export interface KeyView {
  key: ApiKeyRow;
  resource: InferenceResource | undefined;
  window: PeriodWindow;
  used: number;
  points: ChartPoint[];
  from: number;
  to: number;
  perModel: Array<{ model: string; requests: number; prompt_tokens: number; completion_tokens: number }>;
}

export function keyPage(view: KeyView): Html {
  const { key, window } = view;
  const budget = key.budget_tokens;
  return html`<section><h2>API key “${key.alias}”</h2><table>
<tr><th>Budget</th><td>${budget === null ? 'none' : `${view.used} of ${budget} tokens used, ${Math.max(0, budget - view.used)} remaining`}</td></tr>
<tr><th>Period</th><td>${key.reset_period ?? 'never resets'}</td></tr>
<tr><th>Next reset</th><td data-testid="next-reset">${Number.isFinite(window.end) ? time(window.end) : '—'}</td></tr>
<tr><th>Credits left on the resource</th><td>${view.resource ? fromMicro(view.resource.credits_total - view.resource.credits_used) : '—'}</td></tr>
<tr><th>Models</th><td>${key.allowed_models ? (JSON.parse(key.allowed_models) as string[]).join(', ') : 'all'}</td></tr>
<tr><th>Own limits</th><td>${keyLimits(key)}</td></tr>
<tr><th>Works until</th><td>${key.expires === null ? 'no expiry (while the project has an active grant)' : `the end of ${lastDayBefore(key.expires)} (UTC)`}</td></tr></table></section>
<section><h2>Tokens per hour, last 7 days</h2>${usageChart(view.points, view.from, view.to)}
<table data-testid="usage"><tr><th>Model</th><th>Requests</th><th>Prompt tokens</th><th>Completion tokens</th></tr>
${view.perModel.map((m) => html`<tr><td>${m.model}</td><td>${m.requests}</td><td>${m.prompt_tokens}</td><td>${m.completion_tokens}</td></tr>`)}</table></section>`;
}

export interface AccountView {
  csrf: string;
  accountId: string;
  isAdmin: boolean;
  projects: DashboardProject[];
  models: readonly string[];
  designatedOrganisation: string;
  now: number;
  created?: { alias: string; secret: string } | undefined;
  error?: string | undefined;
  requests?: Array<ServiceRequest & { project_name: string }> | undefined;
  optedOut: boolean;
}

/** Whether the viewer may change a key: operators, the PI and deputy any key, a member the keys they created. */
const managesKey = (project: DashboardProject, view: AccountView, createdBy: string | null) =>
  view.isAdmin || project.role === 'pi' || project.role === 'deputy' || createdBy === view.accountId;

/** Per-key limits as a cell: `60 rpm, 10000 tpm`, or a dash. */
export const keyLimits = (k: Pick<ApiKeyRow, 'requests_per_minute' | 'tokens_per_minute'>) =>
  [
    k.requests_per_minute === null ? '' : `${k.requests_per_minute} rpm`,
    k.tokens_per_minute === null ? '' : `${k.tokens_per_minute} tpm`,
  ]
    .filter(Boolean)
    .join(', ') || '—';

function keyActions(project: DashboardProject, view: AccountView, k: DashboardProject['keys'][number]): Html {
  if (k.revoked) return html`revoked ${day(k.revoked)}`;
  if (!managesKey(project, view, k.created_by)) return html``;
  return html`<a href="/ui/keys/${k.id}" aria-label="Manage ${k.alias}">Manage</a>
<form class="inline" method="post" action="/ui/keys/${k.id}/revoke">${csrfField(view.csrf)}<button aria-label="Revoke ${k.alias}">Revoke</button></form>`;
}

function keyRows(project: DashboardProject, view: AccountView): Html {
  return html`<table data-testid="keys"><tr><th>Alias</th><th>Created</th><th>Budget</th><th>Period</th><th>Models</th><th>Limits</th><th>Expires</th><th>Last used</th><th>Usage (30 days)</th><th></th></tr>
${project.keys.map(
  (
    k,
  ) => html`<tr><td>${k.alias} <span class="muted">…${k.secret_hint}</span></td><td>${day(k.created)}<br><span class="muted">${k.created_by_email ?? 'operator'}</span></td><td>${k.budget_tokens ?? '—'}</td>
<td>${k.reset_period ?? '—'}</td><td>${k.allowed_models ? (JSON.parse(k.allowed_models) as string[]).join(', ') : 'all'}</td>
<td>${keyLimits(k)}</td><td>${k.expires === null ? '—' : lastDayBefore(k.expires)}</td>
<td>${k.last_used ? time(k.last_used) : 'never'}</td><td>${k.requests} requests, ${k.tokens} tokens, ${fromMicro(k.credits)} credits</td>
<td>${keyActions(project, view, k)}</td></tr>`,
)}</table>`;
}

function createKeyForm(project: DashboardProject, view: AccountView): Html {
  return html`<details><summary>Create a key</summary><form method="post" action="/ui/projects/${project.id}/keys">${csrfField(view.csrf)}
<label>Alias <input name="alias" required maxlength="200"></label>
<label>Token budget (optional) <input name="budget" inputmode="numeric" pattern="[0-9]*"></label>
<label>Reset period <select name="period"><option value="">never</option><option>day</option><option>week</option><option>month</option></select>
or every <input name="days" size="4" inputmode="numeric" pattern="[0-9]*"> days</label>
${keyLimitFields({})}<fieldset><legend>Allowed models (none checked: all)</legend>${view.models.map(
    (m) => html`<label><input type="checkbox" name="models" value="${m}"> ${m}</label>`,
  )}</fieldset><button>Create key</button></form></details>`;
}

/** The expiry and per-key limit fields of the key forms, filled with a key's values when editing. */
export function keyLimitFields(
  k: Partial<Pick<ApiKeyRow, 'expires' | 'requests_per_minute' | 'tokens_per_minute'>>,
): Html {
  return html`<label>Expires after (optional, the last day it works) <input name="expires" type="date" value="${k.expires ? lastDayBefore(k.expires) : ''}"></label>
<label>Requests per minute (optional) <input name="rpm" inputmode="numeric" pattern="[0-9]*" value="${k.requests_per_minute ?? ''}"></label>
<label>Tokens per minute (optional) <input name="tpm" inputmode="numeric" pattern="[0-9]*" value="${k.tokens_per_minute ?? ''}"></label>`;
}

/** The portal order or service-desk form, or why the project cannot ask yet (no active grant, no allocation). */
function resourceRequestForm(project: DashboardProject, view: AccountView, active: boolean): Html {
  if (!active)
    return html`<p>An inference resource can be requested while the project has an active grant; ask the operators to record the new grant.</p>`;
  if (project.allocations.length === 0)
    return html`<p>An inference resource is paid with node hours of an allocation; the project has none yet. Ask the operators.</p>`;
  const clusters = project.allocations.map((a) => html`<option>${a.cluster}</option>`);
  if (project.organisation === view.designatedOrganisation) {
    return html`<form method="post" action="/ui/projects/${project.id}/resource">${csrfField(view.csrf)}
<p>Add resource → ${project.name} → category ${PORTAL_CATEGORY} → offering ${PORTAL_OFFERING}</p>
<label>Node hours <input name="node_hours" required inputmode="decimal"></label><label>Cluster <select name="cluster">${clusters}</select></label>
<button>Create inference resource</button></form>`;
  }
  return html`<form method="post" action="/ui/projects/${project.id}/service-request">${csrfField(view.csrf)}
<p>Service-desk request for the ${SERVICE_DESK_SERVICE}</p><label>Request <textarea name="text" required></textarea></label>
<label>Node hours <input name="node_hours" required inputmode="decimal"></label><label>Cluster <select name="cluster">${clusters}</select></label>
<button>File request</button></form>`;
}

const REQUEST_STATE = { open: 'pending', approved: 'approved', rejected: 'rejected' } as const;

function projectRequests(project: DashboardProject): Html {
  if (project.requests.length === 0) return html``;
  return html`<h3>Service-desk requests</h3><table data-testid="project-requests"><tr><th>#</th><th>Filed</th><th>Node hours</th><th>Cluster</th><th>Request</th><th>State</th></tr>
${project.requests.map(
  (r) =>
    html`<tr><td>${r.id}</td><td>${day(r.created)}</td><td>${r.node_hours}</td><td>${r.cluster}</td><td>${r.text}</td><td><strong>${REQUEST_STATE[r.status]}</strong>${r.decided_at ? html` ${day(r.decided_at)}` : ''}</td></tr>`,
)}</table>`;
}

function projectSection(project: DashboardProject, view: AccountView): Html {
  const active = project.grants.some((g) => g.starts <= view.now && view.now < g.ends);
  const manages = view.isAdmin || project.role === 'pi' || project.role === 'deputy';
  const resource = project.resource;
  return html`<section data-project="${project.name}"><h2>${project.name} <span class="muted">(${project.role})</span></h2>
<p>Grants: ${project.grants.map((g) => html`${day(g.starts)} – ${lastDayBefore(g.ends)}; `)}${active ? '' : html`<strong>no active grant</strong>`}</p>
<p>Allocations: ${project.allocations.map((a) => html`${a.cluster}: ${a.node_hours} node hours; `)}</p>
${
  resource
    ? html`<p>Inference resource: <strong data-testid="credits">${fromMicro(resource.credits_total - resource.credits_used)}</strong> credits left of ${fromMicro(resource.credits_total)}</p>
${keyRows(project, view)}${active ? createKeyForm(project, view) : ''}`
    : manages
      ? resourceRequestForm(project, view, active)
      : html`<p>This project has no inference resource yet. Ask the project's PI or deputy to request one.</p>`
}${projectRequests(project)}</section>`;
}

function requestQueue(requests: Array<ServiceRequest & { project_name: string }>, csrf: string): Html {
  return html`<section><h2>Service-desk requests</h2><table data-testid="requests"><tr><th>#</th><th>Project</th><th>Request</th><th>Node hours</th><th>Cluster</th><th></th></tr>
${requests.map(
  (
    r,
  ) => html`<tr><td>${r.id}</td><td>${r.project_name}</td><td>${r.text}</td><td>${r.node_hours}</td><td>${r.cluster}</td>
<td><form class="inline" method="post" action="/ui/requests/${r.id}/approve">${csrfField(csrf)}<button>Approve</button></form>
<form class="inline" method="post" action="/ui/requests/${r.id}/reject">${csrfField(csrf)}<button>Reject</button></form></td></tr>`,
)}</table></section>`;
}

export function accountPage(view: AccountView): Html {
  const created = view.created
    ? html`<section role="status"><h2>Key “${view.created.alias}” created</h2>
<p>Copy the secret now: it is shown only this once and cannot be shown again.</p>
<p class="secret" id="secret" data-testid="secret">${view.created.secret}</p><button type="button" id="copy">Copy</button></section>`
    : '';
  return html`${errorBox(view.error)}${created}
${view.projects.length === 0 ? html`<section>You are not a member of any project.</section>` : view.projects.map((p) => projectSection(p, view))}
${view.requests ? requestQueue(view.requests, view.csrf) : ''}
${subscription(
  view.optedOut,
  view.csrf,
  view.projects.some((p) => p.resource),
)}`;
}

/** `subscribed`: the account has access to a project with an inference resource (only they are emailed). */
function subscription(optedOut: boolean, csrf: string, subscribed: boolean): Html {
  return html`<section><h2>Status announcements</h2><p data-testid="subscription">${
    optedOut
      ? 'You have opted out of announcement emails.'
      : subscribed
        ? 'You receive announcement emails (maintenance, incidents, model changes).'
        : 'You will receive announcement emails (maintenance, incidents, model changes) once a project of yours has an inference resource.'
  } <a href="/ui/status">Status page</a></p>
<form method="post" action="/ui/announcements/subscription">${csrfField(csrf)}<input type="hidden" name="opt_out" value="${optedOut ? '0' : '1'}">
<button>${optedOut ? 'Subscribe again' : 'Opt out of announcement emails'}</button></form></section>`;
}

/** The public status page: what is on now, what is coming, what ended lately; its Atom feed is linked in the head. */
export function statusPage(view: { open: Announcement[]; past: Announcement[]; now: number }): Html {
  const row = (a: Announcement) =>
    html`<li id="${announcementAnchor(a)}"><strong>${kindLabel(a.kind)}: ${a.title}</strong> — ${time(a.starts)} to ${time(a.ends)}<br>${a.body}</li>`;
  const current = view.open.filter((a) => a.starts <= view.now);
  const upcoming = view.open.filter((a) => a.starts > view.now);
  return html`<section><h2>Current</h2>${current.length ? html`<ul>${current.map(row)}</ul>` : html`<p>No current incidents or maintenance.</p>`}</section>
<section><h2>Upcoming</h2>${upcoming.length ? html`<ul>${upcoming.map(row)}</ul>` : html`<p>Nothing scheduled.</p>`}</section>
${view.past.length ? html`<section><h2>Past 30 days</h2><ul>${view.past.map(row)}</ul></section>` : ''}
<p><a href="status.atom">Atom feed</a> of every announcement</p>`;
}

export const COPY_SCRIPT =
  "document.getElementById('copy')?.addEventListener('click',()=>navigator.clipboard.writeText(document.getElementById('secret').textContent))";
