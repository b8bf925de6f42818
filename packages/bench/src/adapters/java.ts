import { type Adapter, type AdapterResults, addMetric, LATENCY, nonEmpty, THROUGHPUT } from './results.js';
import { isNumber, isObject, nanosecondsPer, parseJson } from './units.js';

/** JMH `-rf json`: `<time>/op` is latency, `ops/<time>` is throughput; other units are not ours. */
export const parseJavaJmh: Adapter = (input, { average }) => {
  if (average === 'median') return undefined;
  const document = parseJson(input);
  if (!Array.isArray(document)) return undefined;
  const results: AdapterResults = new Map();
  for (const entry of document) {
    if (!isObject(entry) || typeof entry.benchmark !== 'string' || !isObject(entry.primaryMetric)) return undefined;
    const { score, scoreConfidence, scoreUnit } = entry.primaryMetric;
    if (!isNumber(score) || typeof scoreUnit !== 'string' || !Array.isArray(scoreConfidence)) return undefined;
    const [low, high] = scoreConfidence;
    if (!isNumber(low) || !isNumber(high)) return undefined;
    const [numerator, denominator] = scoreUnit.split('/') as [string, string | undefined];
    if (denominator === 'op') {
      const scale = nanosecondsPer(numerator);
      if (scale === undefined) return undefined;
      addMetric(results, entry.benchmark, LATENCY, {
        value: score * scale,
        lower_value: low * scale,
        upper_value: high * scale,
      });
    } else if (numerator === 'ops' && denominator !== undefined) {
      const scale = nanosecondsPer(denominator);
      if (scale === undefined) return undefined;
      const perSecond = 1e9 / scale;
      addMetric(results, entry.benchmark, THROUGHPUT, {
        value: score * perSecond,
        lower_value: low * perSecond,
        upper_value: high * perSecond,
      });
    } else {
      return undefined;
    }
  }
  return nonEmpty(results);
};
