import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latestOutbox, type OutboxMessage } from '@atrium/core';
import { listen, silentLogger } from '@atrium/core/testing';
import type { FastifyInstance } from 'fastify';
import { benchConfigSchema, buildBenchApp, createUser, mintJwt, openBenchDatabase } from '../src/index.js';

/** Response bodies, read loosely by the tests. */
// biome-ignore lint/suspicious/noExplicitAny: tests navigate JSON bodies without declaring every shape
export type Json = any;

export const SECRET = 'DO_NOT_USE_THIS_IN_PRODUCTION';
export const ISSUER = 'http://localhost:3000/';

export const tokenFor = (email: string, aud = 'api_key') =>
  mintJwt(
    { aud, exp: Math.floor(Date.now() / 1000) + 3600, iat: Math.floor(Date.now() / 1000), iss: ISSUER, sub: email },
    SECRET,
  );

export interface Bench {
  app: FastifyInstance;
  base: string;
  dataDir: string;
  databaseUrl: string;
  /** Muriel (a regular user) and Eustace (a server admin) and Courage (another user). */
  muriel: string;
  eustace: string;
  courage: string;
  call(method: string, path: string, options?: { token?: string | undefined; body?: unknown }): Promise<Response>;
  json<T = Json>(
    method: string,
    path: string,
    options?: { token?: string | undefined; body?: unknown; status?: number },
  ): Promise<T>;
  close(): Promise<void>;
}

/** A bench server on a fresh database with three users and their API JWTs. */
export async function startBench(databaseUrl: string, overrides: Record<string, unknown> = {}): Promise<Bench> {
  const seed = await openBenchDatabase(databaseUrl);
  await createUser(seed.db, {
    name: 'Eustace Bagge',
    slug: 'eustace-bagge',
    email: 'eustace.bagge@nowhere.com',
    admin: true,
  });
  await createUser(seed.db, { name: 'Muriel Bagge', slug: 'muriel-bagge', email: 'muriel.bagge@nowhere.com' });
  await createUser(seed.db, { name: 'Courage', slug: 'courage', email: 'courage@nowhere.com' });
  await seed.close();
  const config = benchConfigSchema.parse({
    port: 0,
    database: databaseUrl,
    security: { secretKey: SECRET },
    ...overrides,
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-bench-'));
  const app = await buildBenchApp(config, { logger: silentLogger, dataDir, accessLog: false });
  const base = await listen(app);
  const call = (method: string, path: string, options: { token?: string | undefined; body?: unknown } = {}) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${base}${path}`, {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body),
    });
  };
  return {
    app,
    base,
    dataDir,
    databaseUrl,
    muriel: tokenFor('muriel.bagge@nowhere.com'),
    eustace: tokenFor('eustace.bagge@nowhere.com'),
    courage: tokenFor('courage@nowhere.com'),
    call,
    async json(method, path, options = {}) {
      const response = await call(method, path, options);
      const text = await response.text();
      const expected = options.status ?? (method === 'POST' ? 201 : 200);
      if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return text.length > 0 ? JSON.parse(text) : undefined;
    },
    close: () => app.close(),
  };
}

/** The newest messages of the server's outbox, newest first. */
export async function outboxOf(bench: Pick<Bench, 'databaseUrl'>, limit = 10): Promise<OutboxMessage[]> {
  const database = await openBenchDatabase(bench.databaseUrl);
  try {
    return await latestOutbox(database.db, limit);
  } finally {
    await database.close();
  }
}

/** Muriel's organisation and a project in it. */
export async function seedProject(bench: Bench, visibility: 'public' | 'private' = 'public') {
  const org = await bench.json('POST', '/v0/organizations', { token: bench.muriel, body: { name: 'Muriel Bagge' } });
  const project = await bench.json('POST', `/v0/organizations/${org.slug}/projects`, {
    token: bench.muriel,
    body: { name: 'The Computer', slug: 'the-computer', visibility },
  });
  return { org, project };
}

export const bmf = (values: Record<string, Record<string, number>>) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(values).map(([benchmark, measures]) => [
        benchmark,
        Object.fromEntries(Object.entries(measures).map(([measure, value]) => [measure, { value }])),
      ]),
    ),
  );

export const at = (second: number) => new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString();
