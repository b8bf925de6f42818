import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeGracefully, type Logger } from '@atrium/core';
import { listen, silentLogger } from '@atrium/core/testing';
import type { FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { buildInferenceApp, inferenceConfigSchema } from '../../src/index.js';

export const TEST_KEY = 'sk-test-0123456789abcdef';

export interface TestGateway {
  app: FastifyInstance;
  base: string;
  dataDir: string;
  /** The official OpenAI client, pointed at the gateway, without retries (so failures show). */
  client: OpenAI;
  /** Stops the gateway (and its engines) but keeps the data directory for inspection. */
  stop(): Promise<void>;
  /** Stops and removes the data directory. */
  close(): Promise<void>;
}

/** Builds the inference app from a config object on a fresh data directory and listens on loopback. */
export async function startGateway(
  config: Record<string, unknown>,
  logger: Logger = silentLogger,
): Promise<TestGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-inference-'));
  const parsed = inferenceConfigSchema.parse({ port: 0, auth: { demoKey: TEST_KEY }, ...config });
  const app = await buildInferenceApp(parsed, { logger, dataDir, accessLog: true });
  const base = await listen(app);
  const client = new OpenAI({ apiKey: TEST_KEY, baseURL: `${base}/v1`, maxRetries: 0, timeout: 20_000 });
  let stopped: Promise<void> | undefined;
  // As `atrium serve` stops: drain, then cut connections a client left half-open (an aborted fetch can).
  const stop = () => {
    stopped ??= closeGracefully(app, 2_000);
    return stopped;
  };
  return {
    app,
    base,
    dataDir,
    client,
    stop,
    close: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A raw JSON POST with the test key, for cases the SDK would not send. */
export function postJson(base: string, path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_KEY}`, ...headers },
    body,
  });
}

/** The `APIError` the official client throws for a refused request. */
export async function apiError(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}
