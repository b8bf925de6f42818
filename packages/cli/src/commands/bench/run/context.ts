import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname, platform } from 'node:os';
import { basename } from 'node:path';

/** What the client knows about where it runs: the `context` of `POST /v0/run` (Bencher's keys). */
export type RunContext = Record<string, string>;

const KEY = 'bencher.dev/v0/';

export interface GitFacts {
  root: string;
  ref: string | undefined;
  head: string;
  rootCommit: string | undefined;
}

const git = (args: string[], cwd: string) =>
  new Promise<string>((resolve, reject) =>
    execFile('git', args, { cwd, encoding: 'utf8' }, (error, stdout) =>
      error ? reject(error) : resolve(stdout.trim()),
    ),
  );

/** Toplevel, HEAD and its symbolic ref in one `git rev-parse`, the root commit alongside; undefined outside git. */
export async function readGit(cwd: string): Promise<GitFacts | undefined> {
  try {
    const [parsed, roots] = await Promise.all([
      git(['rev-parse', '--show-toplevel', 'HEAD', '--symbolic-full-name', 'HEAD'], cwd),
      git(['rev-list', '--max-parents=0', 'HEAD'], cwd),
    ]);
    const [root, head, ref] = parsed.split('\n');
    if (!root || !head) return undefined;
    return {
      root,
      ref: ref?.startsWith('refs/') ? ref : undefined,
      head,
      rootCommit: roots.split('\n').at(-1) || undefined,
    };
  } catch {
    return undefined;
  }
}

export function osName(os: NodeJS.Platform = platform()): string {
  return os === 'darwin' ? 'macOS' : os === 'win32' ? 'Windows' : 'Linux';
}

/** 13 base36 characters identifying this machine (from /etc/machine-id, else the host name). */
export function fingerprint(): string {
  let id: string;
  try {
    id = readFileSync('/etc/machine-id', 'utf8').trim();
  } catch {
    id = hostname();
  }
  const digest = createHash('sha256').update(id).digest();
  return digest.readBigUInt64BE(0).toString(36).padStart(13, '0').slice(0, 13);
}

/** The run context: repository, branch, HEAD, OS, machine fingerprint and the CI markers our server reads. */
export function runContext(facts: GitFacts | undefined, ci: { inCi: boolean; onTheFly: boolean }): RunContext {
  const context: RunContext = {
    [`${KEY}testbed/os`]: osName(),
    [`${KEY}testbed/fingerprint`]: fingerprint(),
  };
  if (facts) {
    context[`${KEY}repo/name`] = basename(facts.root);
    if (facts.rootCommit) context[`${KEY}repo/hash`] = facts.rootCommit;
    if (facts.ref) {
      context[`${KEY}branch/ref`] = facts.ref;
      context[`${KEY}branch/ref/name`] = facts.ref.replace(/^refs\/(heads|tags)\//, '');
    }
    context[`${KEY}branch/hash`] = facts.head;
  }
  if (ci.inCi) context['atrium.dev/v0/ci'] = 'true';
  if (ci.onTheFly) context['atrium.dev/v0/ci/on-the-fly'] = 'true';
  return context;
}
