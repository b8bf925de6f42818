/** Parsing and limits of the perf query (pure). */

export const MAX_PERMUTATIONS = 255;

export interface PerfParams {
  branches: string[];
  heads: (string | undefined)[];
  testbeds: string[];
  benchmarks: string[];
  measures: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A comma-separated list of UUIDs; a problem message when empty or malformed. */
export function parseUuidList(name: string, text: string | undefined): string[] | string {
  const items = (text ?? '').split(',').filter((item) => item.length > 0);
  if (items.length === 0) return `${name} must list at least one UUID`;
  const bad = items.find((item) => !UUID.test(item));
  if (bad !== undefined) return `${name} contains an invalid UUID: ${bad.slice(0, 64)}`;
  return [...new Set(items.map((item) => item.toLowerCase()))];
}

/** `heads` is parallel to `branches`; an empty entry means the branch's current head. */
export function parseHeads(text: string | undefined): (string | undefined)[] | string {
  if (text === undefined || text === '') return [];
  const items = text.split(',').map((item) => (item.length === 0 ? undefined : item));
  const bad = items.find((item) => item !== undefined && !UUID.test(item));
  if (bad !== undefined) return `heads contains an invalid UUID: ${bad.slice(0, 64)}`;
  return items.map((item) => item?.toLowerCase());
}

export type PerfQueryInput = Record<'branches' | 'heads' | 'testbeds' | 'benchmarks' | 'measures', string | undefined>;

/** Validated perf parameters, or a 400 message (including more than 255 permutations, with the count). */
export function parsePerfParams(query: PerfQueryInput): PerfParams | string {
  const lists: Record<string, string[]> = {};
  for (const name of ['branches', 'testbeds', 'benchmarks', 'measures'] as const) {
    const parsed = parseUuidList(name, query[name]);
    if (typeof parsed === 'string') return parsed;
    lists[name] = parsed;
  }
  const heads = parseHeads(query.heads);
  if (typeof heads === 'string') return heads;
  const params = { ...(lists as Omit<PerfParams, 'heads'>), heads };
  const permutations =
    params.branches.length * params.testbeds.length * params.benchmarks.length * params.measures.length;
  if (permutations > MAX_PERMUTATIONS) {
    return `The perf query asks for ${permutations} permutations of branches, testbeds, benchmarks and measures; the maximum is ${MAX_PERMUTATIONS}.`;
  }
  return params;
}
