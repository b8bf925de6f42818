import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atriumBench, bmfCommand, json, type LiveBench, startLiveBench } from './bench-support.js';

interface Call {
  method: string;
  url: string;
  authorization: string | undefined;
  body: Record<string, unknown> | undefined;
}

/** Records GitHub API calls and answers like GitHub: check runs, issue comments. */
function recordingGitHub(): Promise<{
  url: string;
  server: Server;
  calls: Call[];
  comments: { id: number; body: string }[];
}> {
  const calls: Call[] = [];
  const comments: { id: number; body: string }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    calls.push({
      method: req.method as string,
      url: req.url as string,
      authorization: req.headers.authorization,
      body,
    });
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const url = req.url as string;
    if (req.method === 'POST' && url.endsWith('/check-runs')) return send(201, { id: 42 });
    if (req.method === 'PATCH' && url.includes('/check-runs/')) return send(200, { id: 42 });
    if (req.method === 'GET' && url.includes('/comments')) return send(200, comments);
    if (req.method === 'POST' && url.endsWith('/comments')) {
      comments.push({ id: comments.length + 1, body: body?.body as string });
      return send(201, comments.at(-1));
    }
    const patched = /\/issues\/comments\/(\d+)$/.exec(url);
    if (req.method === 'PATCH' && patched) {
      const comment = comments.find((c) => c.id === Number(patched[1]));
      if (comment) comment.body = body?.body as string;
      return send(200, comment);
    }
    send(404, { message: 'Not Found' });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, server, calls, comments });
    }),
  );
}

describe('atrium bench run on GitHub Actions', () => {
  let bench: LiveBench;
  let github: Awaited<ReturnType<typeof recordingGitHub>>;
  let dir: string;
  beforeAll(async () => {
    [bench, github] = await Promise.all([startLiveBench(), recordingGitHub()]);
    dir = mkdtempSync(join(tmpdir(), 'atrium-gha-'));
  });
  afterAll(async () => {
    github?.server.close();
    await bench?.close();
  });

  const pullRequest = (head: string) => {
    const file = join(dir, `event-${head}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        number: 7,
        pull_request: {
          head: { sha: 'c'.repeat(40), repo: { full_name: `${head}/lib` } },
          base: { repo: { full_name: 'owner/lib' } },
        },
      }),
    );
    return file;
  };

  const actions = (event: string, summary: string) => ({
    ATRIUM_BENCH_HOST: bench.base,
    ATRIUM_BENCH_KEY: bench.muriel,
    GITHUB_ACTIONS: 'true',
    GITHUB_API_URL: github.url,
    GITHUB_REPOSITORY: 'owner/lib',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: event,
    GITHUB_SHA: 'd'.repeat(40),
    GITHUB_STEP_SUMMARY: summary,
  });

  it('writes the job summary, opens and completes a check run, and posts then updates one PR comment', async () => {
    const summary = join(dir, 'summary.md');
    const env = actions(pullRequest('owner'), summary);
    const args = ['run', '--project', 'gha', '--branch', 'feature', '--github-actions', 'ghs_token', '--quiet'];
    const first = await atriumBench([...args, ...bmfCommand(10)], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(summary, 'utf8')).toContain('🐰 Bencher Report');
    const [open, complete] = github.calls.filter((c) => c.url.includes('/check-runs'));
    expect(open).toMatchObject({
      method: 'POST',
      url: '/repos/owner/lib/check-runs',
      authorization: 'Bearer ghs_token',
      body: { name: 'Bencher Report (gha)', head_sha: 'c'.repeat(40), status: 'in_progress' },
    });
    expect(complete).toMatchObject({ method: 'PATCH', url: '/repos/owner/lib/check-runs/42' });
    expect(complete?.body).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]?.body).toContain('<div id="bencher.dev/projects/gha/id/feature/linux/magic"></div>');

    const second = await atriumBench([...args, ...bmfCommand(11)], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(github.comments).toHaveLength(1);
    expect(
      github.calls.filter((c) => c.method === 'PATCH' && c.url === '/repos/owner/lib/issues/comments/1'),
    ).toHaveLength(1);

    const other = await atriumBench([...args, '--ci-id', 'other', ...bmfCommand(12)], { env });
    expect(other.code, other.stderr).toBe(0);
    expect(github.comments).toHaveLength(2);
    expect(github.comments[1]?.body).toContain('bencher.dev/projects/gha/id/other');

    const quiet = await atriumBench([...args, '--ci-id', 'quiet', '--ci-only-on-alert', ...bmfCommand(12)], { env });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(github.comments).toHaveLength(2);
  });

  it('refuses a pull request from a fork before running anything', async () => {
    const before = github.calls.length;
    const env = actions(pullRequest('attacker'), join(dir, 'fork-summary.md'));
    const refused = await atriumBench(
      ['run', '--project', 'gha', '--github-actions', 'ghs_token', '--quiet', ...bmfCommand(10)],
      { env },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('fork');
    expect(github.calls.length).toBe(before);
    const reports = json(await atriumBench(['report', 'ls', 'gha', '--host', bench.base]));
    expect(reports).toHaveLength(4);
  });
});
