import { randomUUID } from 'node:crypto';
import { UsageError } from '../../../usage.js';
import { parseCommandLine, Values } from '../args.js';
import { backendFrom, isProjectKey } from '../backend.js';
import { BenchClient } from '../client.js';
import { GitHubActions } from '../github.js';
import type { Io } from '../io.js';
import { readGit, runContext } from './context.js';
import { iteration, readStdin } from './harness.js';
import { commentId, htmlReport } from './html.js';
import { newRun } from './new-run.js';
import { planFrom, RUN_OPTIONS, RUN_USAGE, type RunPlan } from './options.js';
import { humanReport, type Report, ReportLinks } from './report.js';

async function collectResults(plan: RunPlan, io: Io): Promise<string[]> {
  if (!plan.command && plan.files.length === 0 && plan.fileSizes.length === 0) {
    const piped = await readStdin();
    if (!piped?.trim()) {
      throw new UsageError('run needs a benchmark command, --file, --file-size, or results piped on stdin');
    }
    return [piped];
  }
  const echo = plan.quiet
    ? undefined
    : {
        stdout: (chunk: Buffer) => process.stdout.write(chunk),
        stderr: (chunk: Buffer) => process.stderr.write(chunk),
      };
  const results: string[] = [];
  for (let i = 0; i < plan.iterations; i++) results.push(...(await iteration(plan, echo, io.warn)));
  return results;
}

/** `atrium bench run [options] [command…]`: run the benchmarks, submit them, print the verdict. */
export async function run(args: readonly string[], io: Io): Promise<void> {
  const line = parseCommandLine(args, RUN_OPTIONS, { usage: RUN_USAGE, trailing: true, warn: io.warn });
  if (line.positionals.length > 0) throw new UsageError(`unexpected argument '${line.positionals[0]}'`);
  const values = new Values(line, io.env);
  const plan = planFrom(values, line.trailing, io.env, io.warn);
  const backend = backendFrom(values);
  const inCi = io.env.CI === 'true';
  if (isProjectKey(backend.credential) && !plan.project) {
    throw new UsageError('a project API key (atrium_run_…) needs --project');
  }
  if (!plan.project && inCi && !plan.ci.onTheFly) {
    throw new UsageError('CI=true and no --project: pass --project, or --ci-on-the-fly to create a project on the fly');
  }
  const client = new BenchClient(backend, io.warn);
  const github = GitHubActions.detect(io.env, plan.ci, io.warn);
  await github?.start(plan.project ?? 'on the fly');
  // The version check and the git facts are gathered while the benchmarks run.
  const versionChecked = plan.dryRun ? Promise.resolve() : client.checkVersion();
  versionChecked.catch(() => {});
  const gitFacts = readGit(process.cwd());

  const start = new Date();
  const results = await collectResults(plan, io);
  const end = new Date();
  if (!plan.quiet && plan.command) io.out(`\nBenchmark Harness Results:\n${results.join('\n')}\n`);
  await versionChecked;
  const context = runContext(await gitFacts, { inCi, onTheFly: plan.ci.onTheFly });
  const body = newRun(plan, { results, start, end, context, idempotencyKey: randomUUID() });
  if (plan.dryRun) {
    io.out(`${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  if (!plan.quiet) io.out(`\nBench New Report:\n${JSON.stringify(body, null, 2)}\n`);

  const report = await client.send<Report>({ method: 'POST', path: '/v0/run', body });
  if (plan.format === 'json') io.out(`${JSON.stringify(report, null, 2)}\n`);
  if (plan.format !== 'json' || github) {
    const consoleConfig = await client.send<{ url: string }>({ method: 'GET', path: '/v0/server/config/console' });
    const links = new ReportLinks(consoleConfig.url, report, plan.ci.publicLinks);
    const tag = commentId(report, plan.ci.id, { buildTime: plan.buildTime, fileSize: plan.fileSizes.length > 0 });
    const html = htmlReport(links, { tag, noMetrics: plan.ci.noMetrics });
    if (plan.format === 'html') io.out(`${html}\n`);
    else if (plan.format === 'human') io.out(humanReport(links));
    await github?.finish(report, html, tag);
  }
  const alerts = report.alerts?.length ?? 0;
  if (plan.errorOnAlert && alerts > 0) throw new Error(`alerts detected (${alerts})`);
}
