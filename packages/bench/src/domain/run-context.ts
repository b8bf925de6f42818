import { slugify } from '../wire/slug.js';

/** What `bencher run` sends in `context` (keys of `lib/bencher_context`). */
export type RunContext = Record<string, string>;

const KEY = 'bencher.dev/v0/';

export interface RunDefaults {
  branch: string;
  hash: string | undefined;
  testbed: string;
}

/** Bencher's server-side defaults for a run (§2.3). */
export function runDefaults(
  body: { branch?: string | null; hash?: string | null; testbed?: string | null },
  context: RunContext,
): RunDefaults {
  return {
    branch: body.branch ?? context[`${KEY}branch/ref/name`] ?? 'main',
    hash: body.hash ?? context[`${KEY}branch/hash`] ?? undefined,
    testbed: body.testbed ?? context[`${KEY}testbed/os`] ?? 'localhost',
  };
}

/** The project a run without `project` goes to: slug from repository, root commit and machine fingerprint. */
export function onTheFlyProject(context: RunContext): { name: string; slug: string } {
  const repo = context[`${KEY}repo/name`];
  const parts = [
    repo?.slice(0, 42),
    context[`${KEY}repo/hash`]?.slice(0, 7),
    context[`${KEY}testbed/fingerprint`]?.slice(0, 13),
  ];
  const slug = slugify(parts.filter((part) => part !== undefined).join(' '));
  return { name: repo || 'Project', slug: slug || 'project' };
}

/**
 * A client running in CI (it sends `atrium.dev/v0/ci: "true"`) may create a project on the fly only
 * when it also sends `atrium.dev/v0/ci/on-the-fly: "true"` (the CLI's `--ci-on-the-fly`).
 */
export const ciForbidsOnTheFly = (context: RunContext): boolean =>
  context['atrium.dev/v0/ci'] === 'true' && context['atrium.dev/v0/ci/on-the-fly'] !== 'true';
