import type { Service } from '../bench/lib/atrium-serve.js';
import type { Case, Status } from './case.js';
import { inServiceShape } from './error-shape.js';
import type { Answer } from './send.js';

const DEFAULT_MAX_MS = 2000;

const matches = (status: number, expected: Status) =>
  expected === '2xx'
    ? status >= 200 && status < 300
    : expected === '4xx'
      ? status >= 400 && status < 500
      : status === expected;

function messageOf(body: string): string | undefined {
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** What is wrong with an answer to a case (nothing: an empty list). */
export function judge(c: Case, service: Service, answer: Answer): string[] {
  const problems: string[] = [];
  const expected = [c.expect.status].flat();
  const excerpt = answer.body.length > 240 ? `${answer.body.slice(0, 240)}…` : answer.body;
  if (!expected.some((s) => matches(answer.status, s))) {
    problems.push(`status ${answer.status}, expected ${expected.join(' or ')}: ${excerpt}`);
  } else if (answer.status === 500) {
    const message = messageOf(answer.body);
    if (!c.expect.message || message === undefined || !c.expect.message.test(message)) {
      problems.push(`500 that is not a listed AiiDA-compatible one (${c.expect.message ?? 'none listed'}): ${excerpt}`);
    }
  }
  if (answer.status >= 400 && c.expect.page && !/^<!doctype html>/i.test(answer.body)) {
    problems.push(`${answer.status} is not a web-UI page: ${excerpt || '(empty body)'}`);
  } else if (answer.status >= 400 && !c.expect.page && !inServiceShape(service, answer.body)) {
    problems.push(`${answer.status} not in the ${service} error shape: ${excerpt || '(empty body)'}`);
  }
  const maxMs = c.maxMs ?? DEFAULT_MAX_MS;
  if (answer.ms > maxMs) problems.push(`answered in ${Math.round(answer.ms)} ms (limit ${maxMs})`);
  if (c.expect.forbid?.test(answer.body)) problems.push(`the answer matches ${c.expect.forbid}: ${excerpt}`);
  return problems;
}
