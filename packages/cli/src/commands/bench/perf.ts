import { parseCommandLine, positionals, Values } from './args.js';
import { BACKEND_OPTIONS, backendFrom } from './backend.js';
import { BenchClient } from './client.js';
import { type Io, printJson } from './io.js';

interface Named {
  name: string;
}
interface PerfMetric {
  start_time: string;
  version: { number: number; hash: string | null };
  metric: { value: number; lower_value: number | null; upper_value: number | null };
  alert: unknown;
}
export interface Perf {
  results: { branch: Named; testbed: Named; benchmark: Named; measure: Named; metrics: PerfMetric[] }[];
}

const HEADER = ['Benchmark', 'Measure', 'Branch', 'Testbed', 'Version', 'Date', 'Value', 'Lower', 'Upper', 'Alert'];

/** `--table`: one row per metric, columns padded to their widest cell. */
export function perfTable(perf: Perf): string {
  const rows = perf.results.flatMap((series) =>
    series.metrics.map((m) => [
      series.benchmark.name,
      series.measure.name,
      series.branch.name,
      series.testbed.name,
      String(m.version.number),
      m.start_time,
      String(m.metric.value),
      m.metric.lower_value === null ? '' : String(m.metric.lower_value),
      m.metric.upper_value === null ? '' : String(m.metric.upper_value),
      m.alert ? 'yes' : '',
    ]),
  );
  const table = [HEADER, ...rows];
  const widths = HEADER.map((_, i) => Math.max(...table.map((row) => (row[i] as string).length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i] as number)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  return `${[line(HEADER), rule, ...rows.map(line)].join('\n')}\n`;
}

const OPTIONS = {
  ...BACKEND_OPTIONS,
  branches: { type: 'string', multiple: true },
  heads: { type: 'string', multiple: true },
  testbeds: { type: 'string', multiple: true },
  benchmarks: { type: 'string', multiple: true },
  measures: { type: 'string', multiple: true },
  'start-time': { type: 'string' },
  'end-time': { type: 'string' },
  table: { type: 'boolean' },
} as const;

/** `atrium bench perf <project> --branches … --testbeds … --benchmarks … --measures … [--table]`. */
export async function perf(args: readonly string[], io: Io): Promise<void> {
  const usage = 'atrium bench perf <project> --branches … --testbeds … --benchmarks … --measures … [--table]';
  const line = parseCommandLine(args, OPTIONS, { usage, warn: io.warn });
  const [project] = positionals(line, ['project'], usage);
  const values = new Values(line, io.env);
  const millis = (name: string) => {
    const seconds = values.number(name, { min: 0 });
    return seconds === undefined ? undefined : Math.round(seconds * 1000);
  };
  const client = new BenchClient(backendFrom(values), io.warn);
  const answer = await client.send<Perf>({
    method: 'GET',
    path: '/v0/projects/{project}/perf',
    params: { project: project as string },
    query: {
      branches: values.list('branches'),
      heads: values.list('heads').map((head) => (head === '_' ? '' : head)),
      testbeds: values.list('testbeds'),
      benchmarks: values.list('benchmarks'),
      measures: values.list('measures'),
      start_time: millis('start-time'),
      end_time: millis('end-time'),
    },
  });
  if (values.flag('table')) io.out(perfTable(answer));
  else printJson(io, answer);
}
