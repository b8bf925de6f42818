import { describe, expect, it } from 'vitest';
import { createHttpApp, type ErrorFormatter } from '../src/index.js';
import { captureLog, listen, testHttpConfig } from '../src/testing/index.js';

const SECRET = 'sk-SuperSecretValue1234567890abcdefghijkl';
const formatError: ErrorFormatter = (problem) => ({ statusCode: problem.status, body: { message: problem.message } });

describe('logging', () => {
  it('never writes authorization headers, cookies, API keys, query strings or bodies', async () => {
    const log = captureLog('trace');
    const app = await createHttpApp({
      service: 'demo',
      http: testHttpConfig({ bodyLimit: 4096 }),
      logger: log.logger,
      accessLog: true,
      formatError,
    });
    app.post('/echo', async (request) => ({ ok: typeof request.body }));
    app.post('/fail', async () => {
      throw new Error('upstream failed');
    });
    const base = await listen(app);
    const headers = {
      authorization: `Bearer ${SECRET}`,
      cookie: `session=${SECRET}`,
      'x-api-key': SECRET,
      'content-type': 'application/json',
    };
    await fetch(`${base}/echo?api_key=${SECRET}`, { method: 'POST', headers, body: JSON.stringify({ key: SECRET }) });
    await fetch(`${base}/echo`, { method: 'POST', headers, body: `{"key": "${SECRET}"` });
    await fetch(`${base}/echo`, { method: 'POST', headers, body: SECRET });
    await fetch(`${base}/fail`, { method: 'POST', headers, body: JSON.stringify({ prompt: SECRET }) });
    await fetch(`${base}/missing/${SECRET}?token=${SECRET}`, { headers });
    await app.close();

    const output = log.text();
    expect(output).toContain('"route":"/echo"');
    expect(output).toContain('upstream failed');
    expect(output.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(6);
    expect(output).not.toContain(SECRET);
    expect(output).not.toContain('SuperSecret');
  });

  it('redacts secret headers even when code logs a headers object by hand', () => {
    const log = captureLog('info');
    log.logger.info({ req: { headers: { authorization: `Bearer ${SECRET}`, cookie: SECRET } } }, 'by hand');
    expect(log.text()).toContain('[redacted]');
    expect(log.text()).not.toContain(SECRET);
  });
});
