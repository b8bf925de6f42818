import { UsageError } from '../../usage.js';
import { parseCommandLine, Values } from './args.js';
import { BACKEND_OPTIONS, backendFrom } from './backend.js';
import { ApiError, BenchClient } from './client.js';
import type { Io } from './io.js';

const DIMENSIONS = { branch: 'branches', testbed: 'testbeds', benchmark: 'benchmarks', measure: 'measures' } as const;
type Dimension = keyof typeof DIMENSIONS;

interface Named {
  uuid: string;
  archived: string | null;
}

const OPTIONS = {
  ...BACKEND_OPTIONS,
  project: { type: 'string' },
  branch: { type: 'string' },
  testbed: { type: 'string' },
  benchmark: { type: 'string' },
  measure: { type: 'string' },
} as const;

/** The dimension by exact name (archived or not), else by slug or UUID. */
async function find(
  client: BenchClient,
  project: string,
  dimension: Dimension,
  id: string,
): Promise<Named | undefined> {
  const path = `/v0/projects/{project}/${DIMENSIONS[dimension]}`;
  for (const archived of [false, true]) {
    const list = await client.send<Named[]>({
      method: 'GET',
      path,
      params: { project },
      query: { name: id, archived },
    });
    if (list[0]) return list[0];
  }
  try {
    return await client.send<Named>({ method: 'GET', path: `${path}/{id}`, params: { project, id } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/** `atrium bench archive|unarchive --project P --branch B` (or --testbed, --benchmark, --measure). */
export async function archive(archived: boolean, args: readonly string[], io: Io): Promise<void> {
  const verb = archived ? 'archive' : 'unarchive';
  const values = new Values(
    parseCommandLine(args, OPTIONS, {
      usage: `atrium bench ${verb} --project P --branch B | --testbed T | --benchmark B | --measure M`,
      warn: io.warn,
    }),
    io.env,
  );
  const project = values.string('project', 'ATRIUM_BENCH_PROJECT', 'BENCHER_PROJECT');
  if (!project) throw new UsageError(`${verb} needs --project`);
  const given = (Object.keys(DIMENSIONS) as Dimension[]).filter((d) => values.string(d) !== undefined);
  if (given.length !== 1)
    throw new UsageError(`${verb} needs exactly one of --branch, --testbed, --benchmark, --measure`);
  const dimension = given[0] as Dimension;
  const id = values.string(dimension) as string;
  const client = new BenchClient(backendFrom(values), io.warn);
  const found = await find(client, project, dimension, id);
  if (!found) throw new Error(`${verb}: no ${dimension} '${id}' in project '${project}'`);
  if ((found.archived !== null) === archived) {
    io.out(`The ${dimension} (${id}) is already ${verb}d.\n`);
    return;
  }
  await client.send({
    method: 'PATCH',
    path: `/v0/projects/{project}/${DIMENSIONS[dimension]}/{id}`,
    params: { project, id: found.uuid },
    body: { archived },
  });
  io.out(`Successfully ${verb}d the ${dimension} (${id}).\n`);
}
