// `npm run bench -- <name>`: runs bench/<name>.ts, prints its table and writes bench/results/<name>.json.
import { readdirSync } from 'node:fs';
import { type BenchReport, renderTable, writeReport } from './lib/report.js';

const available = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.slice(0, -3));
const name = process.argv[2];
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: npm run bench -- <name>   (available: ${available.join(', ')})\n`);
  process.exit(2);
}
const module = (await import(`./${name}.ts`)) as { default: (args: string[]) => Promise<BenchReport> };
const report = await module.default(process.argv.slice(3));
process.stdout.write(`${renderTable(report)}\n`);
process.stdout.write(`results: ${writeReport(name, report)}\n`);
