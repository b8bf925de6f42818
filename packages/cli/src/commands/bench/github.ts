import { appendFileSync, readFileSync } from 'node:fs';
import { commentTag, MAX_COMMENT } from './run/html.js';
import type { CiOptions } from './run/options.js';
import type { Report } from './run/report.js';

interface PullRequestEvent {
  number?: number;
  pull_request?: { head?: { sha?: string; repo?: { full_name?: string } }; base?: { repo?: { full_name?: string } } };
  workflow_run?: { head_sha?: string };
}

/** Check run names are capped at 255 bytes. */
export function checkRunName(label: string): string {
  const name = `Bencher Report (${label})`;
  const bytes = Buffer.from(name);
  return bytes.length <= 255
    ? name
    : bytes
        .subarray(0, 255)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
}

/** A pull request from another repository must not get our token's write access (a "pwn request"). */
export function isForkPullRequest(event: PullRequestEvent): boolean {
  const head = event.pull_request?.head?.repo?.full_name;
  const base = event.pull_request?.base?.repo?.full_name;
  return head !== undefined && base !== undefined && head !== base;
}

export function headSha(event: PullRequestEvent, env: NodeJS.ProcessEnv): string | undefined {
  return event.pull_request?.head?.sha ?? event.workflow_run?.head_sha ?? env.GITHUB_SHA;
}

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);

/**
 * GitHub Actions integration of `run` (when `GITHUB_ACTIONS=true`): the HTML report appended to the job
 * summary, a check run opened before the benchmarks and completed after, and one pull-request comment
 * found again by its hidden tag. Talks to `GITHUB_API_URL`; API failures are warnings, never fatal.
 */
export class GitHubActions {
  private checkRun: number | undefined;
  private readonly event: PullRequestEvent;

  private constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly ci: CiOptions,
    private readonly warn: (message: string) => void,
  ) {
    let event: PullRequestEvent = {};
    try {
      if (env.GITHUB_EVENT_PATH) event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) as PullRequestEvent;
    } catch (error) {
      warn(`warning: cannot read GITHUB_EVENT_PATH: ${(error as Error).message}`);
    }
    this.event = event;
  }

  static detect(env: NodeJS.ProcessEnv, ci: CiOptions, warn: (message: string) => void): GitHubActions | undefined {
    return env.GITHUB_ACTIONS === 'true' ? new GitHubActions(env, ci, warn) : undefined;
  }

  private get api(): string {
    return (this.env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/$/, '');
  }

  private get repository(): string | undefined {
    return this.env.GITHUB_REPOSITORY;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.api}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.ci.githubToken}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'atrium-bench',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private async bestEffort(what: string, action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (error) {
      this.warn(`warning: GitHub ${what} failed: ${(error as Error).message}`);
    }
  }

  /** Refuses fork pull requests (unless allowed) and opens the check run, before the benchmarks run. */
  async start(projectLabel: string): Promise<void> {
    if (!this.ci.githubToken) return;
    if (isForkPullRequest(this.event) && !this.ci.allowForkPullRequests) {
      throw new Error(
        'refusing to use the GitHub token on a pull request from a fork (see "pwn requests"); pass --ci-i-am-vulnerable-to-pwn-requests to override',
      );
    }
    const sha = headSha(this.event, this.env);
    if (!this.repository || !sha) return;
    await this.bestEffort('check run', async () => {
      const created = await this.call<{ id: number }>('POST', `/repos/${this.repository}/check-runs`, {
        name: checkRunName(this.ci.id ?? projectLabel),
        head_sha: sha,
        status: 'in_progress',
      });
      this.checkRun = created.id;
    });
  }

  async finish(report: Report, html: string, tag: string): Promise<void> {
    const summary = this.env.GITHUB_STEP_SUMMARY;
    if (summary) appendFileSync(summary, `${html}\n`);
    if (!this.ci.githubToken || !this.repository) return;
    const alerts = report.alerts?.length ?? 0;
    await this.bestEffort('check run', () => this.completeCheck(report, html, alerts));
    await this.bestEffort('pull request comment', () => this.comment(report, html, tag, alerts));
  }

  private async completeCheck(report: Report, html: string, alerts: number): Promise<void> {
    const output = {
      title: alerts > 0 ? `🚨 ${alerts} alert${alerts === 1 ? '' : 's'}` : 'No alerts',
      summary: html.slice(0, MAX_COMMENT),
    };
    const completion = { status: 'completed', conclusion: alerts > 0 ? 'failure' : 'success', output };
    if (this.checkRun !== undefined) {
      await this.call('PATCH', `/repos/${this.repository}/check-runs/${this.checkRun}`, completion);
      return;
    }
    const sha = headSha(this.event, this.env);
    if (!sha) return;
    await this.call('POST', `/repos/${this.repository}/check-runs`, {
      name: checkRunName(this.ci.id ?? report.project.name),
      head_sha: sha,
      ...completion,
    });
  }

  private pullRequestNumber(): number | undefined {
    if (this.ci.number !== undefined) return this.ci.number;
    return PULL_REQUEST_EVENTS.has(this.env.GITHUB_EVENT_NAME ?? '') ? this.event.number : undefined;
  }

  private async findComment(issue: number, tag: string): Promise<number | undefined> {
    for (let page = 1; ; page++) {
      const comments = await this.call<{ id: number; body?: string }[]>(
        'GET',
        `/repos/${this.repository}/issues/${issue}/comments?per_page=100&page=${page}`,
      );
      const found = comments.find((c) => c.body?.includes(commentTag(tag)));
      if (found) return found.id;
      if (comments.length < 100) return undefined;
    }
  }

  private async comment(report: Report, html: string, tag: string, alerts: number): Promise<void> {
    const issue = this.pullRequestNumber();
    if (issue === undefined) return;
    const results = (report.results ?? []).flat();
    if (this.ci.onlyThresholds && !results.some((r) => r.measures.some((m) => m.threshold?.model))) return;
    const existing = await this.findComment(issue, tag);
    if (existing !== undefined) {
      await this.call('PATCH', `/repos/${this.repository}/issues/comments/${existing}`, { body: html });
    } else if (!this.ci.onlyOnAlert || alerts > 0) {
      await this.call('POST', `/repos/${this.repository}/issues/${issue}/comments`, { body: html });
    }
  }
}
