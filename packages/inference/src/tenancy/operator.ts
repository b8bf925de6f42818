import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Account, createAccount, findAccountByEmail } from '../storage/accounts.js';
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
import type { ResourceLimits } from '../storage/resources.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { serviceRequests } from '../storage/service-requests.js';
import { type Delivery, type NewAnnouncement, postAnnouncement } from './announcements.js';
import { invalid, notFound } from './errors.js';
import { createKey, type NewKey } from './keys.js';
import { fromMicro } from './pricing.js';
import {
  approveServiceRequest,
  creditProject,
  rejectServiceRequest,
  setLimitsOfProject,
  topUpCredits,
} from './resources.js';

/** The operator's commands (the `atrium inference …` CLI): names and emails instead of ids. */
export class OperatorCommands {
  /** `delivery`: whether the gateway that reads this database sends announcement emails through SMTP. */
  constructor(
    private readonly db: Kysely<InferenceDatabase>,
    private readonly delivery: Delivery = 'outbox',
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
    if (approve) return approveServiceRequest(this.db, operator, requestId);
    await rejectServiceRequest(this.db, operator, requestId);
    return { rejected: requestId };
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

  /** Posts a status announcement and queues the emails to its subscribers. */
  async announce(input: NewAnnouncement) {
    const { announcement, recipients } = await postAnnouncement(this.db, null, input, Date.now(), this.delivery);
    return { ...announcement, recipients };
  }

  /** Creates a key (the secret is returned once). */
  async createKey(projectName: string, input: Omit<NewKey, 'projectId' | 'secret'>, models: ReadonlySet<string>) {
    const project = await this.project(projectName);
    const { key, secret } = await createKey(this.db, null, { ...input, projectId: project.id }, models);
    return { id: key.id, alias: key.alias, project: project.name, secret };
  }
}
