import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Account, createAccount, findAccountByEmail } from '../storage/accounts.js';
import { findApiKey } from '../storage/api-keys.js';
import {
  keysWithProjects,
  projectsOverview,
  type UsageFilter,
  type UsageGroup,
  usageReport,
} from '../storage/operator-listings.js';
import {
  addGrant,
  createProject,
  findProjectByName,
  type Project,
  ROLES,
  type Role,
  setAllocation,
  setMember,
} from '../storage/projects.js';
import { setNodeHourRate } from '../storage/rates.js';
import { type ResourceLimits, resourcesWithProjects } from '../storage/resources.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { serviceRequests } from '../storage/service-requests.js';
import { type Delivery, type NewAnnouncement, outboxEntries, postAnnouncement } from './announcements.js';
import { invalid, notFound } from './errors.js';
import type { KeySettings } from './key-settings.js';
import { createKey, editKey, type NewKey, revokeKey, rotateKey } from './keys.js';
import { fromMicro } from './pricing.js';
import { creditProject, setLimitsOfProject, topUpCredits } from './resources.js';
import { approveServiceRequest, rejectServiceRequest } from './service-desk.js';

/** A key named by its id, or by its project's name and its alias. */
export interface KeyRef {
  id?: string | undefined;
  project?: string | undefined;
  alias?: string | undefined;
}

/** The operator's commands (the `atrium inference …` CLI): names and emails instead of ids. */
export class OperatorCommands {
  /**
   * `delivery`: whether the gateway that reads this database sends announcement emails through SMTP;
   * `channels`: the names of the chat channels it posts announcements to.
   */
  constructor(
    private readonly db: Kysely<InferenceDatabase>,
    private readonly delivery: Delivery = 'outbox',
    private readonly channels: readonly string[] = [],
  ) {}

  private async project(name: string): Promise<Project> {
    const project = await findProjectByName(this.db, name);
    if (!project) throw notFound(`project '${name}'`);
    return project;
  }

  private async account(email: string): Promise<Account> {
    const account = await findAccountByEmail(this.db, email);
    if (!account) throw notFound(`account '${email}'`);
    return account;
  }

  /** Creates an account; without a password, a random one is made and returned (shown once). */
  async createAccount(email: string, name: string, password: string | undefined, isAdmin: boolean) {
    const secret = password ?? randomBytes(12).toString('base64url');
    const account = await createAccount(this.db, { email, name, password: secret, isAdmin });
    return { ...account, ...(password === undefined ? { password: secret } : {}) };
  }

  createProject(name: string, organisation: string | undefined) {
    return createProject(this.db, name, organisation ?? null);
  }

  async addMember(projectName: string, email: string, role: string) {
    if (!ROLES.includes(role as Role)) throw invalid(`role must be one of ${ROLES.join(', ')}`, 'role');
    const project = await this.project(projectName);
    const account = await this.account(email);
    await setMember(this.db, project.id, account.id, role as Role);
    return { project: project.name, email: account.email, role };
  }

  async addGrant(projectName: string, starts: number, ends: number) {
    if (!(ends > starts)) throw invalid('the grant must end after it starts', 'end');
    return addGrant(this.db, (await this.project(projectName)).id, starts, ends);
  }

  async setAllocation(projectName: string, cluster: string, nodeHours: number) {
    if (!Number.isFinite(nodeHours) || nodeHours < 0) throw invalid('node hours must be a number ≥ 0', 'node_hours');
    await setAllocation(this.db, (await this.project(projectName)).id, cluster, nodeHours);
    return { project: projectName, cluster, node_hours: nodeHours };
  }

  async setRate(cluster: string, creditsPerNodeHour: number, effectiveFrom: number) {
    if (cluster.trim() === '') throw invalid('the cluster is required', 'cluster');
    if (!Number.isFinite(creditsPerNodeHour) || creditsPerNodeHour <= 0)
      throw invalid('the rate must be positive', 'rate');
    await setNodeHourRate(this.db, cluster.trim(), creditsPerNodeHour, effectiveFrom);
    return { cluster: cluster.trim(), credits_per_node_hour: creditsPerNodeHour, effective_from: effectiveFrom };
  }

  openRequests() {
    return serviceRequests(this.db, 'open');
  }

  async decide(requestId: number, operatorEmail: string, approve: boolean) {
    const operator = await this.account(operatorEmail);
    const decided = await (approve ? approveServiceRequest : rejectServiceRequest)(
      this.db,
      operator,
      requestId,
      Date.now(),
      this.delivery,
    );
    return { ...decided, credits: fromMicro(decided.credits) };
  }

  /** Gives the project its resource (if needed) and converts node hours of its allocation into credits. */
  async convertNodeHours(projectName: string, cluster: string, nodeHours: number, now = Date.now()) {
    const project = await this.project(projectName);
    const { resourceId, credits } = await this.db
      .transaction()
      .execute((trx) => creditProject(trx, project.id, cluster, nodeHours, now));
    return { project: project.name, resource: resourceId, credits_added: fromMicro(credits) };
  }

  /** Sets a resource's requests per minute, tokens per minute and concurrent requests (omitted: unlimited). */
  async setLimits(projectName: string, limits: ResourceLimits) {
    await setLimitsOfProject(this.db, null, (await this.project(projectName)).id, limits);
    return { project: projectName, ...limits };
  }

  /** Adds credits to a project's resource directly. */
  async topUp(projectName: string, credits: number) {
    await topUpCredits(this.db, null, (await this.project(projectName)).id, credits);
    return { project: projectName, credits_added: credits };
  }

  /** Posts a status announcement and queues the emails to its subscribers and the posts to the chat channels. */
  async announce(input: NewAnnouncement) {
    const posted = await postAnnouncement(this.db, null, input, Date.now(), this.delivery, this.channels);
    return { ...posted.announcement, recipients: posted.recipients, channels: posted.channels };
  }

  /** The outbox: the newest chat-channel deliveries and emails with their delivery state. */
  outbox(limit: number) {
    if (!(Number.isSafeInteger(limit) && limit > 0 && limit <= 1_000))
      throw invalid('the limit must be 1 to 1000', 'limit');
    return outboxEntries(this.db, limit);
  }

  /** Creates a key (the secret is returned once). */
  async createKey(projectName: string, input: Omit<NewKey, 'projectId' | 'secret'>, models: ReadonlySet<string>) {
    const project = await this.project(projectName);
    const { key, secret } = await createKey(this.db, null, { ...input, projectId: project.id }, models);
    return { id: key.id, alias: key.alias, project: project.name, secret };
  }

  /** A key named by its id, or by its project and alias. */
  private async keyId(ref: KeyRef) {
    if (ref.id !== undefined) {
      if (!(await findApiKey(this.db, ref.id))) throw notFound(`key '${ref.id}'`);
      return ref.id;
    }
    if (ref.project === undefined || ref.alias === undefined)
      throw invalid('name the key by its id, or by its project and alias', 'key');
    const project = await this.project(ref.project);
    const alias = ref.alias.trim().toLowerCase();
    const key = (await keysWithProjects(this.db, project.id)).find((k) => k.alias.toLowerCase() === alias);
    if (!key) throw notFound(`key '${ref.alias}' of project '${ref.project}'`);
    return key.id;
  }

  /** The keys of one project or of all: never their secrets, only the last four characters. */
  async listKeys(projectName: string | undefined) {
    const projectId = projectName === undefined ? undefined : (await this.project(projectName)).id;
    return (await keysWithProjects(this.db, projectId)).map((k) => ({
      ...k,
      allowed_models: k.allowed_models === null ? null : (JSON.parse(k.allowed_models) as string[]),
      state: k.revoked !== null ? 'revoked' : k.expires !== null && k.expires <= Date.now() ? 'expired' : 'active',
    }));
  }

  /** Revokes a key: every gateway process refuses it within a second. */
  async revokeKey(ref: KeyRef) {
    const key = await revokeKey(this.db, null, await this.keyId(ref));
    return { id: key.id, alias: key.alias, revoked: true };
  }

  /** Changes a key's alias and settings (those given; null clears one). */
  async editKey(ref: KeyRef, settings: KeySettings, models: ReadonlySet<string>) {
    const key = await editKey(this.db, null, await this.keyId(ref), settings, models);
    return { id: key.id, alias: key.alias, edited: true };
  }

  /** Gives a key a new secret (shown once): same key, settings and history; the old secret is refused. */
  async rotateKey(ref: KeyRef) {
    const { key, secret } = await rotateKey(this.db, null, await this.keyId(ref));
    return { id: key.id, alias: key.alias, secret };
  }

  /** Usage summed per key, project, model or day in a time range, optionally of one project, key or model. */
  async usage(
    filter: { project?: string | undefined; alias?: string | undefined; model?: string | undefined },
    range: Pick<UsageFilter, 'from' | 'to'>,
    by: UsageGroup,
  ) {
    const projectId = filter.project === undefined ? undefined : (await this.project(filter.project)).id;
    const keyId = filter.alias === undefined ? undefined : await this.keyId(filter);
    const rows = await usageReport(this.db, { projectId, keyId, model: filter.model, ...range }, by);
    return rows.map((r) => ({ ...r, credits: fromMicro(r.credits) }));
  }

  /** Every project: members, latest grant end, whether it has an inference resource. */
  async listProjects() {
    return (await projectsOverview(this.db)).map((p) => ({
      ...p,
      members: Number(p.members ?? 0),
      grant_ends: p.grant_ends === null ? null : Number(p.grant_ends),
    }));
  }

  /** Every inference resource: its project, credits and limits. */
  async listResources() {
    return (await resourcesWithProjects(this.db)).map((r) => ({
      id: r.id,
      project: r.project_name,
      credits_total: fromMicro(r.credits_total),
      credits_used: fromMicro(r.credits_used),
      requests_per_minute: r.requests_per_minute,
      tokens_per_minute: r.tokens_per_minute,
      concurrent_requests: r.concurrent_requests,
      created: r.created,
    }));
  }
}
