import { describe, expect, it } from 'vitest';
import { pickReplica, type ReplicaLoad } from '../src/router/balancer.js';

const r = (name: string, outstanding: number, ejectedUntil = 0, hasOrigin = true) =>
  ({ name, origin: hasOrigin ? `http://${name}` : undefined, outstanding, ejectedUntil }) as ReplicaLoad & {
    name: string;
  };

describe('pickReplica', () => {
  const now = 1_000;
  it.each([
    ['least outstanding wins', [r('a', 3), r('b', 1), r('c', 2)], [], 0, 'b'],
    ['ties go to the cursor position', [r('a', 1), r('b', 1), r('c', 1)], [], 2, 'c'],
    ['tried replicas are skipped', [r('a', 0), r('b', 5)], ['a'], 0, 'b'],
    ['ejected replicas are skipped while others remain', [r('a', 0, 2_000), r('b', 9)], [], 0, 'b'],
    ['an expired ejection counts as healthy', [r('a', 0, 999), r('b', 9)], [], 0, 'a'],
    ['all ejected: the one back soonest', [r('a', 0, 3_000), r('b', 0, 2_000)], [], 0, 'b'],
    ['replicas without an address are never chosen', [r('a', 0, 0, false), r('b', 4)], [], 0, 'b'],
    ['nothing left', [r('a', 0)], ['a'], 0, undefined],
  ])('%s', (_name, replicas, triedNames, cursor, expected) => {
    const tried = new Set(replicas.filter((x) => triedNames.includes(x.name)));
    expect(pickReplica(replicas, now, tried, cursor)?.name).toBe(expected);
  });
});
