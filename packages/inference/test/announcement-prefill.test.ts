import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant } from './support/tenancy.js';
import { startUiApp, type UiApp } from './support/ui-app.js';
import { UiClient } from './support/ui-client.js';

const DRAFT = {
  kind: 'model_change',
  title: 'acme/o removed <"soon">',
  body: 'No longer served: acme/o. Requests naming it are refused (404 model_not_found).',
  starts: '2030-01-01T08:00',
  ends: '2030-01-08T08:00',
};

describe('the operator announcement form filled in from its query string', () => {
  let app: UiApp<Awaited<ReturnType<typeof seedTenant>>>;
  let operator: UiClient;

  beforeAll(async () => {
    app = await startUiApp((db) => seedTenant(db, {}, Date.now()));
    operator = new UiClient(app.base);
    expect((await operator.signIn(app.seeded.operator.email, 'op-password')).status).toBe(303);
  }, 60_000);

  afterAll(() => app?.close());

  it('starts with the draft (escaped), and posting it as shown announces it', async () => {
    const page = (await operator.get(`/ui/operator/announcements?${new URLSearchParams(DRAFT)}`)).text;
    expect(page).toContain('<option value="model_change" selected>');
    expect(page).toContain('value="acme/o removed &lt;&quot;soon&quot;&gt;"');
    expect(page).toContain(`<textarea name="body">${DRAFT.body}</textarea>`);
    expect(page).toContain('name="starts" type="datetime-local" required value="2030-01-01T08:00"');
    expect(page).toContain('name="ends" type="datetime-local" required value="2030-01-08T08:00"');

    const plain = (await operator.get('/ui/operator/announcements')).text;
    expect(plain).not.toContain(' selected>');
    expect(plain).toContain('<input name="title" required maxlength="200" value="">');

    const posted = await operator.post('/ui/operator/announcements', DRAFT, '/ui/operator/announcements');
    expect(posted.status).toBe(303);
  });
});
