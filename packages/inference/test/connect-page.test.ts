import { expect, it } from 'vitest';
import { OperatorCommands } from '../src/index.js';
import { allowancesOf } from '../src/ui/connect-page.js';
import { startUiApp } from './support/ui-app.js';
import { UiClient } from './support/ui-client.js';

it.each([
  { context: 262_144, output: 16_384, input: 245_760 },
  { context: 32_768, output: 16_384, input: 16_384 },
  { context: 4_096, output: 2_048, input: 2_048 },
])('allowances for a context of $context: output $output, input $input', ({ context, output, input }) => {
  expect(allowancesOf(context)).toEqual({ output, input });
});

it('"Connect your client": the key\'s models with their allowances and settings for each kind of client', async () => {
  const models = [
    {
      id: 'acme/big',
      contextLength: 262_144,
      modalities: ['text', 'image'],
      backend: { type: 'upstream', replicas: ['http://127.0.0.1:9'] },
    },
    { id: 'acme/small', contextLength: 4_096, backend: { type: 'upstream', replicas: ['http://127.0.0.1:9'] } },
  ];
  const ui = await startUiApp(
    async (db) => {
      const ops = new OperatorCommands(db);
      await ops.createProject('p', 'atrium');
      await ops.addGrant('p', Date.now() - 86_400_000, Date.now() + 86_400_000);
      await ops.setAllocation('p', 'c1', 1);
      await ops.setRate('c1', 10, Date.now() - 86_400_000);
      await ops.convertNodeHours('p', 'c1', 1);
      return (
        await ops.createKey('p', { alias: 'k', allowedModels: ['acme/big'] }, new Set(['acme/big', 'acme/small']))
      ).secret;
    },
    { models },
  );
  try {
    const client = new UiClient(ui.base);
    expect((await client.get('/ui/connect')).status).toBe(303);
    expect((await client.post('/ui/signin/key', { key: ui.seeded })).status).toBe(303);
    const page = await client.get('/ui/connect');
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      '<tr data-model="acme/big"><td><code>acme/big</code></td><td>262144</td><td>text, image</td><td>16384</td><td>245760</td></tr>',
    );
    expect(page.text).not.toContain('data-model="acme/small"');
    expect(page.text).toContain(`OPENAI_BASE_URL=${ui.base}/v1`);
    expect(page.text).toContain(`base_url=&quot;${ui.base}/v1&quot;`);
    expect(page.text).toContain(`curl ${ui.base}/v1/chat/completions`);
    expect(page.text).toContain(`ANTHROPIC_BASE_URL=${ui.base}\n`);
    expect(page.text).toContain('CLAUDE_CODE_MAX_OUTPUT_TOKENS=16384');
    // Claude Code takes a model it does not know for 200,000 tokens; it keeps its input below this minus 16,384.
    expect(page.text).toContain('export CLAUDE_CODE_MAX_CONTEXT_TOKENS=262144');
    expect(page.text).toContain('its input below this minus its output allowance: 245760 tokens');
    expect(page.text).toContain('export ENABLE_TOOL_SEARCH=true');
    expect(page.text).toContain('providerOptions: { openai: { store: false } }');
    const addresses = /<table data-testid="base-addresses">(.*?)<\/table>/s.exec(page.text)?.[1] ?? '';
    expect(addresses).toMatch(new RegExp(`createAnthropic included.*<code>${ui.base}/v1</code>`));
    expect(addresses).toMatch(new RegExp(`Claude Code \\(ANTHROPIC_BASE_URL\\).*<code>${ui.base}</code></td>`));
    for (const line of [
      `base_url = &quot;${ui.base}/v1&quot;\nenv_key = &quot;ATRIUM_API_KEY&quot;\nwire_api = &quot;responses&quot;`,
      'model_context_window = 262144\nmodel_max_output_tokens = 16384\nmodel_auto_compact_token_limit = 245760',
      `&quot;npm&quot;: &quot;@ai-sdk/openai-compatible&quot;`,
      `&quot;limit&quot;: { &quot;context&quot;: 262144, &quot;output&quot;: 16384 }`,
      `createOpenAICompatible({\n  name: &#39;atrium&#39;,\n  baseURL: &#39;${ui.base}/v1&#39;`,
      `createAnthropic({ baseURL: &#39;${ui.base}/v1&#39;, apiKey })`,
      `configuration: { baseURL: &#39;${ui.base}/v1&#39; }`,
    ])
      expect(page.text).toContain(line);
    expect((await client.get('/ui/')).text).toContain('href="/ui/connect"');
  } finally {
    await ui.close();
  }
});
