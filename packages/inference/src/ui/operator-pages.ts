import type { OutboxMessage } from '@atrium/core';
import type { Selectable } from 'kysely';
import type { ChannelConfig } from '../announce/channel-config.js';
import { channelDestination } from '../announce/channels.js';
import type { ModelConfig } from '../config.js';
import type { DeliveryListing } from '../storage/announcement-deliveries.js';
import type { ResourceWithProject } from '../storage/resources.js';
import type { NodeHourRateTable } from '../storage/schema.js';
import type { TopUpRow } from '../storage/top-ups.js';
import { ANNOUNCEMENT_KINDS, kindLabel } from '../tenancy/announcements.js';
import { fromMicro } from '../tenancy/pricing.js';
import { type Html, html } from './html.js';
import { csrfField, errorBox, time } from './pages.js';

export interface RatesView {
  csrf: string;
  now: number;
  /** By cluster, newest first within each (as `nodeHourRates` returns them). */
  rates: Selectable<NodeHourRateTable>[];
  error?: string | undefined;
}

export function ratesPage(view: RatesView): Html {
  const clusters = [...new Set(view.rates.map((r) => r.cluster))];
  const inForce = new Map<string, number>();
  for (const r of view.rates)
    if (r.effective_from <= view.now && !inForce.has(r.cluster)) inForce.set(r.cluster, r.effective_from);
  const state = (r: Selectable<NodeHourRateTable>) => {
    const current = inForce.get(r.cluster);
    if (r.effective_from === current) return 'in force';
    return current === undefined || r.effective_from > current ? 'scheduled' : 'superseded';
  };
  return html`${errorBox(view.error)}<section><h2>Set a node-hour rate</h2>
<p class="muted">The new rate applies from now on; node hours converted before keep the rate they were converted at.</p>
<form method="post" action="/ui/operator/rates">${csrfField(view.csrf)}
<label>Cluster <input name="cluster" list="clusters" required maxlength="100"></label>
<datalist id="clusters">${clusters.map((c) => html`<option value="${c}">`)}</datalist>
<label>Credits per node hour <input name="rate" inputmode="decimal" required></label><button>Set rate</button></form></section>
<section><h2>Rates and their history</h2>${
    view.rates.length === 0
      ? html`<p>No rate is set yet: node hours cannot be converted into credits on any cluster.</p>`
      : html`<table data-testid="rates"><tr><th>Cluster</th><th>Credits per node hour</th><th>From</th><th></th></tr>
${view.rates.map(
  (r) =>
    html`<tr><td>${r.cluster}</td><td>${r.credits_per_node_hour}</td><td>${time(r.effective_from)}</td><td>${state(r)}</td></tr>`,
)}</table>`
  }</section>`;
}

export interface ResourcesView {
  csrf: string;
  resources: ResourceWithProject[];
  topUps: TopUpRow[];
  error?: string | undefined;
}

function resourceSection(r: ResourceWithProject, csrf: string): Html {
  const limit = (name: string, label: string, value: number | null) =>
    html`<label>${label} <input name="${name}" value="${value ?? ''}" inputmode="numeric" pattern="[0-9]*" placeholder="no limit"></label>`;
  return html`<section data-resource="${r.project_name}"><h2>${r.project_name}</h2>
<p>Credits: <strong data-testid="credits-left">${fromMicro(r.credits_total - r.credits_used)}</strong> left of ${fromMicro(r.credits_total)}</p>
<form method="post" action="/ui/operator/projects/${r.project_id}/top-up">${csrfField(csrf)}
<label>Credits to add <input name="credits" inputmode="decimal" required></label><button>Top up</button></form>
<form method="post" action="/ui/operator/projects/${r.project_id}/limits">${csrfField(csrf)}
<p class="muted">Resource-wide limits on top of every key's own; blank: no limit.</p>
${limit('requests_per_minute', 'Requests per minute', r.requests_per_minute)}
${limit('tokens_per_minute', 'Tokens per minute', r.tokens_per_minute)}
${limit('concurrent_requests', 'Concurrent requests', r.concurrent_requests)}<button>Save limits</button></form></section>`;
}

export function resourcesPage(view: ResourcesView): Html {
  return html`${errorBox(view.error)}${
    view.resources.length === 0
      ? html`<section>No project has an inference resource yet.</section>`
      : view.resources.map((r) => resourceSection(r, view.csrf))
  }
<section><h2>Recent top-ups</h2><table data-testid="top-ups"><tr><th>Project</th><th>Credits</th><th>By</th><th>When</th></tr>
${view.topUps.map(
  (t) =>
    html`<tr><td>${t.project_name}</td><td>${fromMicro(t.credits)}</td><td>${t.operator_email ?? 'command line'}</td><td>${time(t.created)}</td></tr>`,
)}</table></section>`;
}

function backendOf(model: ModelConfig): Html {
  const backend = model.backend;
  if (backend.type === 'embedded') return html`embedded engine`;
  return html`upstream: ${backend.replicas.join(', ')}`;
}

export function modelsPage(models: readonly ModelConfig[]): Html {
  return html`<section><h2>Model catalogue</h2><p class="muted">From the configuration; prices in credits per million tokens (cached input tokens cost the same as uncached).</p>
<table data-testid="models"><tr><th>Model</th><th>Served as</th><th>Backend</th><th>Context length</th><th>Input</th><th>Output</th><th>Modalities</th><th>Capabilities</th></tr>
${models.map((m) => {
  const capabilities = Object.entries(m.capabilities)
    .filter(([, on]) => on)
    .map(([name]) => name);
  return html`<tr><td>${m.id}</td><td>${m.backend.type === 'upstream' ? (m.backend.model ?? m.id) : m.id}</td><td>${backendOf(m)}</td>
<td>${m.contextLength}</td><td>${m.pricing.inputPerMillion}</td><td>${m.pricing.outputPerMillion}</td>
<td>${m.modalities.join(', ')}</td><td>${capabilities.join(', ') || '—'}</td></tr>`;
})}</table></section>`;
}

export interface AnnouncementsView {
  csrf: string;
  outbox: OutboxMessage[];
  /** The newest chat-channel deliveries first. */
  deliveries: DeliveryListing[];
  channels: readonly ChannelConfig[];
  /** Where emails go; undefined: nowhere but this outbox. */
  smtp: { host: string; port: number; from: string } | undefined;
  error?: string | undefined;
  /** Values the form starts with (its query string: `kind`, `title`, `body`, `starts`, `ends`), e.g. from `atrium inference reload`. */
  draft?: Partial<Record<'kind' | 'title' | 'body' | 'starts' | 'ends', string>>;
}

function deliveryState(m: OutboxMessage): string {
  switch (m.status) {
    case 'outbox':
      return 'in outbox';
    case 'queued':
      return m.attempts === 0 ? 'queued' : `retrying (${m.attempts} failed)`;
    case 'sent':
      return `sent ${m.sent_at === null ? '' : time(m.sent_at)}`;
    case 'failed':
      return `failed after ${m.attempts} attempt${m.attempts === 1 ? '' : 's'}`;
  }
}

function channelState(d: DeliveryListing): string {
  switch (d.status) {
    case 'pending':
      return d.attempts === 0 ? 'pending' : `retrying (${d.attempts} failed)`;
    case 'sent':
      return `sent ${d.sent_at === null ? '' : time(d.sent_at)}`;
    case 'failed':
      return `failed after ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`;
  }
}

function channelsSection(view: AnnouncementsView): Html {
  return html`<section><h2>Outbox: chat channels</h2>${
    view.channels.length === 0
      ? html`<p data-testid="channels">No chat channel is configured (<code>[[inference.announce.channels]]</code>).</p>`
      : html`<ul data-testid="channels">${view.channels.map((c) => html`<li><strong>${c.name}</strong>: ${channelDestination(c)}</li>`)}</ul>`
  }
<table data-testid="deliveries"><tr><th>Channel</th><th>Announcement</th><th>Queued</th><th>Status</th><th>Last error</th></tr>
${view.deliveries.map(
  (d) =>
    html`<tr><td>${d.channel}</td><td>${kindLabel(d.kind)}: ${d.title}</td><td>${time(d.created)}</td><td>${channelState(d)}</td><td>${d.last_error ?? ''}</td></tr>`,
)}</table></section>`;
}

export function announcementsPage(view: AnnouncementsView): Html {
  const draft = view.draft ?? {};
  return html`${errorBox(view.error)}<section><h2>Post an announcement</h2><form method="post" action="/ui/operator/announcements">${csrfField(view.csrf)}
<label>Kind <select name="kind">${ANNOUNCEMENT_KINDS.map((k) => html`<option value="${k}"${k === draft.kind ? html` selected` : ''}>${kindLabel(k)}</option>`)}</select></label>
<label>Title <input name="title" required maxlength="200" value="${draft.title ?? ''}"></label><label>Details <textarea name="body">${draft.body ?? ''}</textarea></label>
<label>Starts (UTC) <input name="starts" type="datetime-local" required value="${draft.starts ?? ''}"></label><label>Ends (UTC) <input name="ends" type="datetime-local" required value="${draft.ends ?? ''}"></label>
<button>Post announcement</button></form><p><a href="/ui/status">Status page</a> · <a href="/ui/status.atom">Atom feed</a></p></section>
${channelsSection(view)}
<section><h2>Outbox: emails</h2><p data-testid="delivery">${
    view.smtp
      ? `Emails go out through ${view.smtp.host}:${view.smtp.port} from ${view.smtp.from}.`
      : 'No SMTP server is configured: announcement emails stay in this outbox.'
  }</p>
<table data-testid="outbox"><tr><th>To</th><th>Subject</th><th>Queued</th><th>Status</th><th>Last error</th></tr>
${view.outbox.map(
  (m) =>
    html`<tr><td>${m.recipient}</td><td>${m.subject}</td><td>${time(m.created)}</td><td>${deliveryState(m)}</td><td>${m.last_error ?? ''}</td></tr>`,
)}</table></section>`;
}
