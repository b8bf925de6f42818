import type { MeasureDefinition } from '../domain/built-in-measures.js';

/**
 * Bencher's built-in Gungraun measures (`bencher_json` `measure::built_in::gungraun`): name, slug and units, the
 * label the terminal output prints and the key the summary JSON uses. `tools` says where a measure is read:
 * `cache` by Callgrind and Cachegrind, `branch` by Callgrind and Cachegrind's JSON only, `callgrind` by Callgrind
 * only; the others by their own tool. Labels Bencher does not know are left out, as Bencher leaves them out.
 */
export interface GungraunMeasure extends MeasureDefinition {
  label: string;
  json: string | undefined;
  tools: 'cache' | 'branch' | 'callgrind' | 'dhat' | 'memcheck' | 'helgrind' | 'drd';
}

type Row = [name: string, slug: string, units: string, json: string | undefined, label?: string];

const BYTES = 'bytes (B)';

const CACHE: Row[] = [
  ['Instructions', 'instructions', 'instructions', 'Ir'],
  ['L1 Hits', 'l1-hits', 'hits', 'L1hits'],
  ['L2 Hits', 'l2-hits', 'hits', undefined],
  ['LL Hits', 'll-hits', 'hits', 'LLhits'],
  ['RAM Hits', 'ram-hits', 'hits', 'RamHits'],
  ['Total read+write', 'total-read-write', 'reads/writes', 'TotalRW'],
  ['Estimated Cycles', 'estimated-cycles', 'cycles', 'EstimatedCycles'],
  ['Dr', 'dr', 'reads', 'Dr'],
  ['Dw', 'dw', 'writes', 'Dw'],
  ['I1mr', 'i1mr', 'misses (reads)', 'I1mr'],
  ['D1mr', 'd1mr', 'misses (reads)', 'D1mr'],
  ['D1mw', 'd1mw', 'misses (writes)', 'D1mw'],
  ['ILmr', 'ilmr', 'misses (reads)', 'ILmr'],
  ['DLmr', 'dlmr', 'misses (reads)', 'DLmr'],
  ['DLmw', 'dlmw', 'misses (writes)', 'DLmw'],
  ['I1 Miss Rate', 'i1-miss-rate', 'misses (%)', 'I1MissRate'],
  ['LLi Miss Rate', 'lli-miss-rate', 'misses (%)', 'LLiMissRate'],
  ['D1 Miss Rate', 'd1-miss-rate', 'misses (%)', 'D1MissRate'],
  ['LLd Miss Rate', 'lld-miss-rate', 'misses (%)', 'LLdMissRate'],
  ['LL Miss Rate', 'll-miss-rate', 'misses (%)', 'LLMissRate'],
  ['L1 Hit Rate', 'l1-hit-rate', 'hits (%)', 'L1HitRate'],
  ['LL Hit Rate', 'll-hit-rate', 'hits (%)', 'LLHitRate'],
  ['RAM Hit Rate', 'ram-hit-rate', 'hits (%)', 'RamHitRate'],
];
const BRANCH: Row[] = [
  ['Bc', 'bc', 'branches', 'Bc'],
  ['Bcm', 'bcm', 'branches', 'Bcm'],
  ['Bi', 'bi', 'branches', 'Bi'],
  ['Bim', 'bim', 'branches', 'Bim'],
];
const CALLGRIND: Row[] = [
  ['SysCount', 'sys-count', 'syscalls', 'SysCount'],
  ['SysTime', 'sys-time', 'msec/usec/nsec', 'SysTime'],
  ['SysCpuTime', 'sys-cpu-time', 'nsec', 'SysCpuTime'],
  ['Ge', 'global-bus-events', 'events', 'Ge'],
  ['ILdmr', 'ildmr', 'misses (reads)', 'ILdmr'],
  ['DLdmr', 'dldmr', 'misses (reads)', 'DLdmr'],
  ['DLdmw', 'dldmw', 'misses (writes)', 'DLdmw'],
  ['AcCost1', 'accost1', 'temporal locality count', 'AcCost1'],
  ['AcCost2', 'accost2', 'temporal locality count', 'AcCost2'],
  ['SpLoss1', 'sploss1', 'spatial loss count', 'SpLoss1'],
  ['SpLoss2', 'sploss2', 'spatial loss count', 'SpLoss2'],
];
const DHAT: Row[] = [
  ['Total bytes', 'total-bytes', BYTES, 'TotalBytes'],
  ['Total blocks', 'total-blocks', 'blocks', 'TotalBlocks'],
  ['Total units', 'total-units', 'units', 'TotalUnits'],
  ['Total events', 'total-events', 'events', 'TotalEvents'],
  ['Total lifetimes', 'total-lifetimes', 'lifetimes', 'TotalLifetimes'],
  ['At t-gmax bytes', 'at-t-gmax-bytes', BYTES, 'AtTGmaxBytes'],
  ['At t-gmax blocks', 'at-t-gmax-blocks', 'blocks', 'AtTGmaxBlocks'],
  ['At t-end bytes', 'at-t-end-bytes', BYTES, 'AtTEndBytes'],
  ['At t-end blocks', 'at-t-end-blocks', 'blocks', 'AtTEndBlocks'],
  ['Reads bytes', 'reads-bytes', BYTES, 'ReadsBytes'],
  ['Writes bytes', 'writes-bytes', BYTES, 'WritesBytes'],
  ['Maximum bytes', 'maximum-bytes', BYTES, 'MaximumBytes'],
  ['Maximum blocks', 'maximum-blocks', 'blocks', 'MaximumBlocks'],
];
/** The error tools' four counts: `Memcheck Errors`, slug `memcheck-errors`, label `Errors`, JSON `Errors`. */
const errorTool = (tool: string, slug: string): Row[] =>
  [
    ['Errors', 'errors'],
    ['Contexts', 'contexts'],
    ['Suppressed Errors', 'suppressed errors'],
    ['Suppressed Contexts', 'suppressed contexts'],
  ].map(([label, units]) => {
    const text = label as string;
    return [
      `${tool} ${text}`,
      `${slug}-${text.toLowerCase().replace(' ', '-')}`,
      units as string,
      text.replace(' ', ''),
      text,
    ];
  });

const rows = (tools: GungraunMeasure['tools'], list: Row[]): GungraunMeasure[] =>
  list.map(([name, slug, units, json, label]) => ({ name, slug, units, json, label: label ?? name, tools }));

export const GUNGRAUN_MEASURES: readonly GungraunMeasure[] = [
  ...rows('cache', CACHE),
  ...rows('branch', BRANCH),
  ...rows('callgrind', CALLGRIND),
  ...rows('dhat', DHAT),
  ...rows('memcheck', errorTool('Memcheck', 'memcheck')),
  ...rows('helgrind', errorTool('Helgrind', 'helgrind')),
  ...rows('drd', errorTool('DRD', 'drd')),
];

const READ_BY: Readonly<Record<string, { stdout: readonly string[]; json: readonly string[] }>> = {
  callgrind: { stdout: ['cache', 'branch', 'callgrind'], json: ['cache', 'branch', 'callgrind'] },
  cachegrind: { stdout: ['cache'], json: ['cache', 'branch'] },
  dhat: { stdout: ['dhat'], json: ['dhat'] },
  memcheck: { stdout: ['memcheck'], json: ['memcheck'] },
  helgrind: { stdout: ['helgrind'], json: ['helgrind'] },
  drd: { stdout: ['drd'], json: ['drd'] },
};

function index(format: 'stdout' | 'json'): Map<string, Map<string, string>> {
  const byTool = new Map<string, Map<string, string>>();
  for (const [tool, read] of Object.entries(READ_BY)) {
    const byKey = new Map<string, string>();
    for (const measure of GUNGRAUN_MEASURES) {
      const key = format === 'stdout' ? measure.label : measure.json;
      if (key !== undefined && read[format].includes(measure.tools)) byKey.set(key, measure.slug);
    }
    byTool.set(tool, byKey);
  }
  return byTool;
}

const STDOUT = index('stdout');
const JSON_KEYS = index('json');

/** The slug of a metric `label` printed in a `tool` section (`CALLGRIND`, `DHAT`, …); undefined when unknown. */
export const stdoutMeasure = (tool: string, label: string) => STDOUT.get(tool.toLowerCase())?.get(label);

/** The slug of a summary JSON metric `key` of a profile of `tool` (`Callgrind`, `DHAT`, …); undefined when unknown. */
export const jsonMeasure = (tool: string, key: string) => JSON_KEYS.get(tool.toLowerCase())?.get(key);
