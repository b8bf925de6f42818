import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { captureLog } from '@atrium/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_MODEL_ID } from '../src/index.js';
import { postJson, startGateway, type TestGateway } from './support/gateway.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('privacy invariant', () => {
  let gateway: TestGateway | undefined;
  afterAll(() => gateway?.close());

  it('never writes prompts or responses to logs, the database or files', async () => {
    const marker = `PRIVACY-CANARY-${randomBytes(8).toString('hex')}`;
    const log = captureLog('debug');
    gateway = await startGateway({}, log.logger);
    const { client, base } = gateway;
    const messages = [
      { role: 'system' as const, content: `system ${marker}` },
      { role: 'user' as const, content: `tell me about ${marker}` },
    ];

    await client.chat.completions.create({ model: TEST_MODEL_ID, messages });
    const stream = await client.chat.completions.create({
      model: TEST_MODEL_ID,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const _chunk of stream) {
      // drain
    }
    await client.responses.create({ model: TEST_MODEL_ID, instructions: `system ${marker}`, input: marker });
    await client.responses.stream({ model: TEST_MODEL_ID, input: [{ role: 'user', content: marker }] }).finalResponse();
    await client.embeddings.create({ model: TEST_MODEL_ID, input: [`embed ${marker}`, marker] });
    await client.embeddings.create({ model: TEST_MODEL_ID, input: marker, encoding_format: 'float' });
    // Refused requests and upstream errors carry the prompt too.
    const refused = await postJson(
      base,
      '/v1/chat/completions',
      JSON.stringify({ model: TEST_MODEL_ID, messages, tools: [{ type: 'function' }] }),
    );
    expect(refused.status).toBe(400);
    const stateful = await postJson(
      base,
      '/v1/responses',
      JSON.stringify({ model: TEST_MODEL_ID, input: marker, previous_response_id: `resp_${marker}` }),
    );
    expect(stateful.status).toBe(400);
    const malformed = await postJson(base, '/v1/chat/completions', `{"model":"${marker}",`);
    expect(malformed.status).toBe(400);
    const unknownModel = await postJson(
      base,
      '/v1/embeddings',
      JSON.stringify({ model: `acme/${marker}`, input: marker }),
    );
    expect(unknownModel.status).toBe(404);
    await gateway.stop();

    const logText = log.text();
    expect(logText).toContain('"route":"/v1/chat/completions"');
    expect(logText).not.toContain(marker);
    const files = filesUnder(gateway.dataDir);
    expect(files.some((f) => f.endsWith('inference.db'))).toBe(true);
    for (const file of files) {
      const bytes = readFileSync(file);
      expect(bytes.includes(marker), file).toBe(false);
      expect(bytes.includes(Buffer.from(marker, 'utf16le')), file).toBe(false);
    }
  }, 60_000);
});
