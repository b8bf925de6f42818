// Requests Node's HTTP parser refuses before any route runs: the answer must still be in the service's shape.
import type { Service } from '../../bench/lib/atrium-serve.js';
import type { Case } from '../case.js';

const raw = (text: string) => ({ raw: Buffer.from(text, 'latin1') });

export const framingCases = (service: Service): Case[] =>
  [
    {
      name: 'L4 a 20 KB header',
      request: (_s: unknown, sentinel: string) => ({
        method: 'GET',
        path: '/healthz',
        headers: { 'x-fill': `${sentinel}${'h'.repeat(20_000)}` },
      }),
      expect: { status: 431 },
    },
    {
      name: 'L4 a 20 KB cookie',
      request: (_s: unknown, sentinel: string) => ({
        method: 'GET',
        path: '/healthz',
        headers: { cookie: `a=${sentinel}${'c'.repeat(20_000)}` },
      }),
      expect: { status: 431 },
    },
    {
      name: 'L4 bad Content-Length',
      request: () => raw('POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'),
      expect: { status: 400 },
    },
    {
      name: 'L4 two Content-Lengths',
      request: () => raw('POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'),
      expect: { status: 400 },
    },
    {
      name: 'L4 a control character in the path',
      request: () => raw('GET /he\x01althz HTTP/1.1\r\nHost: x\r\n\r\n'),
      expect: { status: 400 },
    },
    {
      name: 'L4 a header without a colon',
      request: () => raw('GET /healthz HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n'),
      expect: { status: 400 },
    },
  ].map((c) => ({ ...c, service, parserOnly: true }) as Case);
