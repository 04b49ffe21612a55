import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { webhookEndpoints } from '@/db/schema';
import { apiRequest, createApiFixture, idParams, makeScopedApiKey, noParams } from '@/testing/api-fixture';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { openWebhookSecret } from '@/lib/webhooks/secret';

// As the e2e server: `localhost` allowed by name (a self-hoster's LAN receiver); literal internal addresses are not.
process.env.OUTBOUND_ALLOWED_HOSTS = 'localhost';
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
const fixture = await createApiFixture();
const { GET, POST } = await import('./route');
const { DELETE, PATCH } = await import('./[id]/route');

let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let writer: string;
beforeAll(async () => {
  tenant = await fixture.tenant();
  writer = await makeScopedApiKey(fixture.db, tenant.workspace.id, ['webhooks:write']);
});

const create = (token: string, body: unknown) =>
  POST(apiRequest('/api/v1/webhook-endpoints', { method: 'POST', token, body }), noParams);
const stored = () =>
  fixture.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, tenant.workspace.id));

describe('/api/v1/webhook-endpoints', () => {
  it('needs the webhooks:write scope (403 naming it), for reading too; nothing is written', async () => {
    const refused = await create(tenant.token, { url: 'http://localhost:9/hooks', events: ['delivery.sent'] });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toMatchObject({ missingScope: 'webhooks:write' });
    const list = await GET(apiRequest('/api/v1/webhook-endpoints', { token: tenant.token }), noParams);
    expect(list.status).toBe(403);
    expect(await stored()).toEqual([]);
  });

  it('bad input is 422 problem+json naming the field, and writes nothing', async () => {
    const cases: [unknown, string][] = [
      [{ url: 'ftp://localhost/x', events: ['delivery.sent'] }, 'url'],
      [{ url: 'http://127.0.0.1:9/hooks', events: ['delivery.sent'] }, 'url'],
      [{ url: 'http://10.0.0.7/hooks', events: ['delivery.sent'] }, 'url'],
      [{ url: 'http://169.254.169.254/latest/meta-data/', events: ['delivery.sent'] }, 'url'],
      [{ url: 'http://[::ffff:127.0.0.1]/hooks', events: ['delivery.sent'] }, 'url'],
      [{ url: 'http://localhost:9/hooks', events: [] }, 'events'],
      [{ url: 'http://localhost:9/hooks', events: ['post.deleted'] }, 'events.0'],
      [{ url: 'http://localhost:9/hooks', events: ['delivery.sent'], secret: 'hunter2' }, 'secret'],
      [{ url: 'http://localhost:9/hooks', events: ['delivery.sent'], extra: 1 }, '_'],
    ];
    for (const [body, field] of cases) {
      const response = await create(writer, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(Object.keys((await response.json()).errors), JSON.stringify(body)).toEqual([field]);
    }
    const notJson = await POST(
      apiRequest('/api/v1/webhook-endpoints', { method: 'POST', token: writer, rawBody: '{' }),
      noParams,
    );
    expect(notJson.status).toBe(400);
    expect(await stored()).toEqual([]);
  });

  it('creates an endpoint: the generated secret is returned once, stored sealed, never listed', async () => {
    const created = await create(writer, {
      url: 'http://localhost:9/hooks',
      events: ['delivery.sent', 'post.approved'],
    });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({ url: 'http://localhost:9/hooks', events: ['delivery.sent', 'post.approved'] });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [row] = await stored();
    expect(row!.secretSealed).not.toContain(body.secret.slice(6));
    expect(openWebhookSecret(row!.secretSealed, TEST_ENCRYPTION_KEY, row!.id)).toBe(body.secret);

    const own = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    const second = await create(writer, {
      url: 'https://93.184.215.14/hooks',
      events: ['delivery.failed'],
      secret: own,
    });
    expect(second.status).toBe(201);
    expect((await second.json()).secret).toBe(own);

    const list = await GET(apiRequest('/api/v1/webhook-endpoints', { token: writer }), noParams);
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).not.toContain('whsec_');
    expect(text).not.toContain('secret');
    expect(JSON.parse(text).data.map((e: { url: string }) => e.url)).toEqual([
      'http://localhost:9/hooks',
      'https://93.184.215.14/hooks',
    ]);
  });

  it('PATCH { enabled } pauses and resumes the workspace’s own endpoint; bad input is 422; another workspace’s is 404', async () => {
    const [mine] = await stored();
    const path = `/api/v1/webhook-endpoints/${mine!.id}`;
    const patch = (token: string, body: unknown, id = mine!.id) =>
      PATCH(apiRequest(path, { method: 'PATCH', token, body }), idParams(id));
    for (const body of [{}, { enabled: 'no' }, { enabled: false, url: 'http://localhost:9/other' }]) {
      const bad = await patch(writer, body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.headers.get('content-type')).toBe('application/problem+json');
    }
    expect((await stored()).find((e) => e.id === mine!.id)).toMatchObject({ enabled: true, url: mine!.url });
    const other = await fixture.tenant();
    const otherToken = await makeScopedApiKey(fixture.db, other.workspace.id, ['webhooks:write']);
    expect((await patch(otherToken, { enabled: false })).status).toBe(404);
    expect((await patch(tenant.token, { enabled: false })).status).toBe(403);
    expect((await stored()).find((e) => e.id === mine!.id)?.enabled).toBe(true);

    const paused = await patch(writer, { enabled: false });
    expect(paused.status).toBe(200);
    const body = await paused.json();
    expect(body).toMatchObject({ id: mine!.id, enabled: false });
    expect(JSON.stringify(body)).not.toContain('secret');
    expect((await stored()).find((e) => e.id === mine!.id)?.enabled).toBe(false);
    expect(await (await patch(writer, { enabled: true })).json()).toMatchObject({ id: mine!.id, enabled: true });
  });

  it('DELETE removes the workspace’s own endpoint; another workspace’s is 404', async () => {
    const other = await fixture.tenant();
    const otherToken = await makeScopedApiKey(fixture.db, other.workspace.id, ['webhooks:write']);
    const [mine] = await stored();
    const path = `/api/v1/webhook-endpoints/${mine!.id}`;
    const foreign = await DELETE(apiRequest(path, { method: 'DELETE', token: otherToken }), idParams(mine!.id));
    expect(foreign.status).toBe(404);
    const bad = await DELETE(
      apiRequest('/api/v1/webhook-endpoints/x', { method: 'DELETE', token: writer }),
      idParams('x'),
    );
    expect(bad.status).toBe(404);
    const deleted = await DELETE(apiRequest(path, { method: 'DELETE', token: writer }), idParams(mine!.id));
    expect(deleted.status).toBe(204);
    expect((await stored()).map((e) => e.id)).not.toContain(mine!.id);
  });
});
