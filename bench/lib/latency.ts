import { Agent, request } from 'node:http';
import { percentileOfSorted } from './load.js';

export interface LatencySample {
  p50Us: number;
  p99Us: number;
}

function get(url: URL, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Microsecond latency percentiles at a light, fixed concurrency (autocannon only reports whole ms):
 * `connections` keep-alive loops each sending requests back to back until `requests` are done.
 */
export async function sampleLatency(target: string, requests = 4000, connections = 2): Promise<LatencySample> {
  const url = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const samples = new Float64Array(requests);
  let next = 0;
  const loop = async () => {
    while (next < requests) {
      const index = next++;
      const started = process.hrtime.bigint();
      await get(url, agent);
      samples[index] = Number(process.hrtime.bigint() - started) / 1000;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  samples.sort();
  return { p50Us: percentileOfSorted(samples, 0.5), p99Us: percentileOfSorted(samples, 0.99) };
}
