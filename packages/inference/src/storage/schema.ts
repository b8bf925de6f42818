/**
 * Kysely table types of the inference database. Times are Unix milliseconds; credits are integer
 * micro-credits (1 credit = 1,000,000), so reservations and settlements add up exactly.
 */
import type { OutboxTable } from '@atrium/core';
import type { Generated } from 'kysely';

export interface AccountTable {
  id: string;
  /** Trimmed and lower-cased; the sign-in name. */
  email: string;
  name: string;
  /** argon2id PHC string; null for accounts that sign in only through OIDC. */
  password_hash: string | null;
  /** `issuer|subject` of a linked OpenID Connect identity. */
  oidc_subject: string | null;
  /** 1 for operators. */
  is_admin: number;
  created: number;
}

export interface ProjectTable {
  id: string;
  name: string;
  /** The organisation the project belongs to (decides the resource creation path). */
  organisation: string | null;
  created: number;
}

export interface ProjectMemberTable {
  project_id: string;
  account_id: string;
  role: 'pi' | 'deputy' | 'member';
}

export interface ProjectGrantTable {
  id: Generated<number>;
  project_id: string;
  starts: number;
  ends: number;
}

export interface AllocationTable {
  project_id: string;
  cluster: string;
  node_hours: number;
}

export interface NodeHourRateTable {
  cluster: string;
  effective_from: number;
  credits_per_node_hour: number;
}

export interface InferenceResourceTable {
  id: string;
  project_id: string;
  credits_total: number;
  /** Settled charges plus open reservations. */
  credits_used: number;
  requests_per_minute: number | null;
  tokens_per_minute: number | null;
  concurrent_requests: number | null;
  /** The minute (Unix ms, floored) the two counters below belong to. */
  window_minute: number;
  window_requests: number;
  window_tokens: number;
  created: number;
}

export interface ServiceRequestTable {
  id: Generated<number>;
  project_id: string;
  requested_by: string;
  service: string;
  text: string;
  node_hours: number;
  cluster: string;
  status: 'open' | 'approved' | 'rejected';
  decided_by: string | null;
  decided_at: number | null;
  created: number;
}

export interface ApiKeyTable {
  id: string;
  project_id: string;
  resource_id: string;
  alias: string;
  /** The alias trimmed and case-folded: unique per resource. */
  alias_key: string;
  /** SHA-256 (hex) of the secret; the secret itself is never stored. */
  secret_hash: string;
  /** The last four characters of the secret, to tell keys apart in lists. */
  secret_hint: string;
  budget_tokens: number | null;
  /** `day`, `week`, `month` or `<N>d`; null: the budget never resets. */
  reset_period: string | null;
  /** JSON array of model ids; null: every model. */
  allowed_models: string | null;
  created_by: string | null;
  created: number;
  revoked: number | null;
  last_used: number | null;
  /** Start of the period `period_used` belongs to (see `period.ts`). */
  period_start: number;
  /** Settled tokens plus open reservations in that period. */
  period_used: number;
  /** After this instant the key is refused (the end of the expiry day); null: no expiry. */
  expires: number | null;
  /** Per-key limits (null: none), besides the resource's. */
  requests_per_minute: number | null;
  tokens_per_minute: number | null;
  /** The minute (Unix ms, floored) the two counters below belong to. */
  window_minute: number;
  window_requests: number;
  window_tokens: number;
  /** When the secret was last replaced; null: never. */
  rotated: number | null;
}

export interface UsageHourlyTable {
  key_id: string;
  model: string;
  hour: number;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  credits: number;
}

/** A web UI sign-in: an account, or one API key ("sign in with access token"). */
export interface UiSessionTable {
  /** SHA-256 of the cookie's token. */
  token_hash: string;
  account_id: string | null;
  key_id: string | null;
  /** The token forms must echo (CSRF). */
  csrf: string;
  expires: number;
}

/** A status announcement (planned maintenance, incident, model change). */
export interface AnnouncementTable {
  id: Generated<number>;
  kind: 'maintenance' | 'incident' | 'model_change';
  title: string;
  body: string;
  starts: number;
  ends: number;
  created: number;
}

/** The delivery of one announcement to one configured chat channel, by the background channel sender. */
export interface AnnouncementDeliveryTable {
  id: Generated<number>;
  announcement_id: number;
  /** The channel's `name` in `[[inference.announce.channels]]`. */
  channel: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: Generated<number>;
  /** When a pending delivery is due (again); an attempt in progress pushes it out by a lease. */
  next_attempt: Generated<number>;
  /** Why the last attempt failed; never holds a webhook URL or token. */
  last_error: string | null;
  created: number;
  sent_at: number | null;
}

/** Accounts that opted out of announcement emails (everyone with access is subscribed otherwise). */
export interface AnnouncementOptOutTable {
  account_id: string;
}

/** A direct credit top-up by an operator (`operator_id` null: the CLI). */
export interface CreditTopUpTable {
  id: Generated<number>;
  resource_id: string;
  /** Micro-credits added. */
  credits: number;
  operator_id: string | null;
  created: number;
}

/** A gateway process's lease of a resource's concurrency slots (see `slot-leases.ts`). */
export interface SlotLeaseTable {
  resource_id: string;
  /** The process, a random id per start. */
  holder: string;
  slots: number;
  /** Past this time the lease no longer counts (its process stopped renewing it). */
  expires: number;
}

/** The last entry of a process's usage journal that `usage_hourly` already contains. */
export interface UsageJournalMarkTable {
  journal: string;
  seq: number;
}

/** The single row (id 1) of the published catalogue: see `storage/catalogue-state.ts`. */
export interface CatalogueStateTable {
  id: number;
  /** Raised by `atrium inference reload`; every gateway process reloads its catalogue when it sees it rise. */
  version: number;
  /** JSON `CatalogueFingerprint` of the catalogue last loaded or published, for the reload's diff. */
  fingerprint: string;
  updated: number;
}

/** What each running gateway process loaded: see `storage/catalogue-state.ts`. */
export interface CatalogueLoadTable {
  /** `host:pid` */
  process: string;
  /** The published version it last acted on. */
  version: number;
  /** Why loading that version failed; null: it serves it. Never holds a configuration value. */
  error: string | null;
  /** Refreshed every few seconds while the process runs. */
  seen: number;
}

export interface InferenceDatabase {
  account: AccountTable;
  project: ProjectTable;
  project_member: ProjectMemberTable;
  project_grant: ProjectGrantTable;
  allocation: AllocationTable;
  node_hour_rate: NodeHourRateTable;
  inference_resource: InferenceResourceTable;
  service_request: ServiceRequestTable;
  api_key: ApiKeyTable;
  usage_hourly: UsageHourlyTable;
  ui_session: UiSessionTable;
  announcement: AnnouncementTable;
  announcement_opt_out: AnnouncementOptOutTable;
  announcement_delivery: AnnouncementDeliveryTable;
  outbox: OutboxTable;
  credit_top_up: CreditTopUpTable;
  inference_slot_lease: SlotLeaseTable;
  usage_journal_mark: UsageJournalMarkTable;
  catalogue_state: CatalogueStateTable;
  catalogue_load: CatalogueLoadTable;
}
