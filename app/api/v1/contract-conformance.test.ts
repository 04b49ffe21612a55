import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRequest, createApiFixture, idParams, makeScopedApiKey, noParams } from '@/testing/api-fixture';
import { allResponses, type HttpMethod, type RouteContract } from '@/lib/api/contract/define';
import { createApiKey } from '@/db/queries/api-keys';
import { recordOwnMessages } from '@/db/queries/inbox/items';
import { makeAccount } from '@/testing/db/factories';
import { generateApiKey } from '@/lib/auth/api-key-token';
import { accountScheduleContract } from './accounts/[id]/schedule/contract';
import { GET as getSchedule, PUT as putSchedule } from './accounts/[id]/schedule/route';
import { accountContract } from './accounts/[id]/contract';
import { DELETE as disconnectAccount } from './accounts/[id]/route';
import { GET as listAccounts, POST as connectAccount } from './accounts/route';
import { accountsContract } from './accounts/contract';
import { openApiContract } from './openapi.json/contract';
import { GET as getOpenApi } from './openapi.json/route';
import { cancelPostContract } from './posts/[id]/cancel/contract';
import { POST as cancelPost } from './posts/[id]/cancel/route';
import { postContract } from './posts/[id]/contract';
import { GET as getPost, PATCH as editPost } from './posts/[id]/route';
import { postsContract } from './posts/contract';
import { importsContract } from './imports/contract';
import { inboxReplyContract } from './inbox/[id]/reply/contract';
import { POST as replyToInboxItem } from './inbox/[id]/reply/route';
import { inboxContract } from './inbox/contract';
import { GET as listInbox } from './inbox/route';
import { POST as importPosts } from './imports/route';
import { mediaContentContract } from './media/[id]/content/contract';
import { GET as getMediaContent } from './media/[id]/content/route';
import { mediaContract } from './media/contract';
import { POST as uploadMedia } from './media/route';
import { makeImage } from '@/testing/images';
import { storeInboxItem } from '@/testing/inbox';
import { GET as listPosts, POST as createPost } from './posts/route';
import { snippetContract } from './snippets/[id]/contract';
import { DELETE as deleteSnippet } from './snippets/[id]/route';
import { snippetsContract } from './snippets/contract';
import { GET as listSnippets, POST as createSnippet } from './snippets/route';
import { templateContract } from './templates/[id]/contract';
import { DELETE as deleteTemplate, GET as getTemplate, PATCH as patchTemplate } from './templates/[id]/route';
import { templatesContract } from './templates/contract';
import { GET as listTemplates, POST as createTemplate } from './templates/route';
import { webhookEndpointContract } from './webhook-endpoints/[id]/contract';
import { DELETE as deleteWebhookEndpoint } from './webhook-endpoints/[id]/route';
import { webhookEndpointsContract } from './webhook-endpoints/contract';
import { GET as listWebhookEndpoints, POST as createWebhookEndpoint } from './webhook-endpoints/route';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { insertMetricHistory } from '@/testing/analytics';
import { analyticsSummaryContract } from './analytics/summary/contract';
import { GET as getAnalyticsSummary } from './analytics/summary/route';
import { postMetricsContract } from './posts/[id]/metrics/contract';
import { GET as getPostMetrics } from './posts/[id]/metrics/route';

process.env.APP_ENCRYPTION_KEY ??= TEST_ENCRYPTION_KEY;
// POST /accounts calls a Mastodon-API server on loopback, allowed by name as on the e2e server.
process.env.OUTBOUND_ALLOWED_HOSTS = 'localhost';

const fixture = await createApiFixture();
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
beforeAll(async () => {
  tenant = await fixture.tenant();
});

/**
 * The real answer is one the contract documents: its status is listed, its media type matches, the body
 * parses with the documented schema without losing a field, and the documented headers are valid.
 */
async function expectConforms(route: RouteContract, method: HttpMethod, response: Response) {
  const operation = route.operations[method]!;
  const documented = allResponses(operation)[response.status];
  expect(documented, `${method} ${route.path} answered an undocumented ${response.status}`).toBeDefined();
  const body: unknown = await response.json();
  expect(response.headers.get('content-type')).toBe(documented!.mediaType ?? 'application/json');
  const parsed = documented!.schema!.safeParse(body);
  expect(parsed.error, `${method} ${route.path} ${response.status}`).toBeUndefined();
  // Parsing strips what the schema does not name: equality proves no field is undocumented.
  expect(parsed.data).toEqual(body);
  if (documented!.headers) {
    const names = Object.keys(documented!.headers.shape);
    const headers = Object.fromEntries(names.map((n) => [n, response.headers.get(n) ?? undefined]));
    expect(
      documented!.headers.safeParse(headers).error,
      `${method} ${route.path} ${response.status} headers`,
    ).toBeUndefined();
  }
  return body as Record<string, unknown>;
}

// One time for every post: a replay must send the same request as its original.
const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
const newPost = (key: string) =>
  createPost(
    apiRequest('/api/v1/posts', {
      method: 'POST',
      token: tenant.token,
      key,
      body: { text: `Contract ${key}`, accountIds: tenant.accounts.map((a) => a.id), scheduledAt: tomorrow },
    }),
    noParams,
  );

describe('real answers match the generated contract', () => {
  it('POST /posts: 201 with Location, its replay, 400 without a key, 422 on invalid fields, 401 without an API key', async () => {
    const key = randomUUID();
    const created = await newPost(key);
    expect(created.status).toBe(201);
    await expectConforms(postsContract, 'POST', created);
    const replay = await newPost(key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await expectConforms(postsContract, 'POST', replay);

    const noKey = await createPost(
      apiRequest('/api/v1/posts', { method: 'POST', token: tenant.token, body: { text: 'x', accountIds: [] } }),
      noParams,
    );
    expect(noKey.status).toBe(400);
    await expectConforms(postsContract, 'POST', noKey);
    const invalid = await createPost(
      apiRequest('/api/v1/posts', {
        method: 'POST',
        token: tenant.token,
        key: randomUUID(),
        body: { text: '', accountIds: [] },
      }),
      noParams,
    );
    expect(invalid.status).toBe(422);
    expect(await expectConforms(postsContract, 'POST', invalid)).toHaveProperty('errors');
    const anonymous = await createPost(
      apiRequest('/api/v1/posts', { method: 'POST', key: randomUUID(), body: {} }),
      noParams,
    );
    expect(anonymous.status).toBe(401);
    await expectConforms(postsContract, 'POST', anonymous);
  });

  it('POST and GET a thread: its parts, each with its deliveries, are documented', async () => {
    const created = await createPost(
      apiRequest('/api/v1/posts', {
        method: 'POST',
        token: tenant.token,
        key: randomUUID(),
        body: {
          kind: 'thread',
          parts: [{ text: 'Contract thread 1/2' }, { text: 'Contract thread 2/2' }],
          accountIds: tenant.accounts.map((a) => a.id),
          scheduledAt: tomorrow,
        },
      }),
      noParams,
    );
    expect(created.status).toBe(201);
    const body = await expectConforms(postsContract, 'POST', created);
    expect(body.parts).toHaveLength(2);
    const id = body.id as string;
    const read = await getPost(apiRequest(`/api/v1/posts/${id}`, { token: tenant.token }), idParams(id));
    expect((await expectConforms(postContract, 'GET', read)).parts).toHaveLength(2);
  });

  it('GET /posts: a page, and 400 for a limit out of range', async () => {
    await newPost(randomUUID());
    const page = await listPosts(apiRequest('/api/v1/posts?limit=1', { token: tenant.token }), noParams);
    expect(page.status).toBe(200);
    const body = await expectConforms(postsContract, 'GET', page);
    expect(body.data).toHaveLength(1);
    const invalid = await listPosts(apiRequest('/api/v1/posts?limit=0', { token: tenant.token }), noParams);
    expect(invalid.status).toBe(400);
    await expectConforms(postsContract, 'GET', invalid);
  });

  it('GET and PATCH /posts/{id}: the post, the edited post, and 404 for an unknown id', async () => {
    const { id } = (await (await newPost(randomUUID())).json()) as { id: string };
    const found = await getPost(apiRequest(`/api/v1/posts/${id}`, { token: tenant.token }), idParams(id));
    expect(found.status).toBe(200);
    await expectConforms(postContract, 'GET', found);
    const missing = await getPost(
      apiRequest(`/api/v1/posts/${randomUUID()}`, { token: tenant.token }),
      idParams(randomUUID()),
    );
    expect(missing.status).toBe(404);
    await expectConforms(postContract, 'GET', missing);

    const edited = await editPost(
      apiRequest(`/api/v1/posts/${id}`, {
        method: 'PATCH',
        token: tenant.token,
        key: randomUUID(),
        body: { text: 'Edited through the contract' },
      }),
      idParams(id),
    );
    expect(edited.status).toBe(200);
    expect(await expectConforms(postContract, 'PATCH', edited)).toMatchObject({ text: 'Edited through the contract' });
  });

  it('POST /posts/{id}/cancel: the canceled post', async () => {
    const { id } = (await (await newPost(randomUUID())).json()) as { id: string };
    const canceled = await cancelPost(
      apiRequest(`/api/v1/posts/${id}/cancel`, { method: 'POST', token: tenant.token }),
      idParams(id),
    );
    expect(canceled.status).toBe(200);
    expect(await expectConforms(cancelPostContract, 'POST', canceled)).toMatchObject({ status: 'canceled' });
  });

  it('GET /analytics/summary and GET /posts/{id}/metrics: the figures, 422 for a bad period, 404 for an unknown post', async () => {
    const [postId] = await insertMetricHistory(fixture.db, {
      workspaceId: tenant.workspace.id,
      accountIds: tenant.accounts.map((a) => a.id),
      posts: 4,
      from: new Date('2026-02-01T00:00:00Z'),
      to: new Date('2026-02-05T00:00:00Z'),
      readings: 2,
    });
    const summary = await getAnalyticsSummary(
      apiRequest('/api/v1/analytics/summary?from=2026-02-01T00:00:00Z&to=2026-02-05T00:00:00Z', {
        token: tenant.token,
      }),
      noParams,
    );
    expect(summary.status).toBe(200);
    expect((await expectConforms(analyticsSummaryContract, 'GET', summary)).totals).toMatchObject({ posts: 4 });
    const invalid = await getAnalyticsSummary(
      apiRequest('/api/v1/analytics/summary?from=2026-02-01T00:00:00Z', { token: tenant.token }),
      noParams,
    );
    expect(invalid.status).toBe(422);
    await expectConforms(analyticsSummaryContract, 'GET', invalid);
    const metrics = await getPostMetrics(
      apiRequest(`/api/v1/posts/${postId}/metrics`, { token: tenant.token }),
      idParams(postId!),
    );
    expect(metrics.status).toBe(200);
    await expectConforms(postMetricsContract, 'GET', metrics);
    const unknown = randomUUID();
    const missing = await getPostMetrics(
      apiRequest(`/api/v1/posts/${unknown}/metrics`, { token: tenant.token }),
      idParams(unknown),
    );
    expect(missing.status).toBe(404);
    await expectConforms(postMetricsContract, 'GET', missing);
  });

  it('GET /accounts and GET /openapi.json', async () => {
    const accounts = await listAccounts(apiRequest('/api/v1/accounts', { token: tenant.token }), noParams);
    expect(accounts.status).toBe(200);
    expect((await expectConforms(accountsContract, 'GET', accounts)).data).toHaveLength(2);
    await expectConforms(openApiContract, 'GET', getOpenApi(new Request('http://localhost/api/v1/openapi.json')));
  });

  it('GET and PUT /accounts/{id}/schedule: the schedule, 403 without accounts:write, 422, 404', async () => {
    const id = tenant.accounts[0]!.id;
    const path = `/api/v1/accounts/${id}/schedule`;
    const found = await getSchedule(apiRequest(path, { token: tenant.token }), idParams(id));
    expect(found.status).toBe(200);
    await expectConforms(accountScheduleContract, 'GET', found);
    const body = { timeZone: 'Europe/Berlin', slots: [{ weekday: 'mon', time: '09:00' }] };
    const refused = await putSchedule(apiRequest(path, { method: 'PUT', token: tenant.token, body }), idParams(id));
    expect(refused.status).toBe(403);
    await expectConforms(accountScheduleContract, 'PUT', refused);
    const key = generateApiKey();
    await createApiKey(fixture.db, {
      workspaceId: tenant.workspace.id,
      name: 'writer',
      prefix: key.prefix,
      hash: key.hash,
      scopes: ['accounts:read', 'accounts:write'],
    });
    const saved = await putSchedule(apiRequest(path, { method: 'PUT', token: key.token, body }), idParams(id));
    expect(saved.status).toBe(200);
    expect(await expectConforms(accountScheduleContract, 'PUT', saved)).toMatchObject(body);
    const invalid = await putSchedule(
      apiRequest(path, { method: 'PUT', token: key.token, body: { timeZone: 'UTC', slots: [{ weekday: 'x' }] } }),
      idParams(id),
    );
    expect(invalid.status).toBe(422);
    await expectConforms(accountScheduleContract, 'PUT', invalid);
    const missing = randomUUID();
    const notFound = await putSchedule(
      apiRequest(`/api/v1/accounts/${missing}/schedule`, { method: 'PUT', token: key.token, body }),
      idParams(missing),
    );
    expect(notFound.status).toBe(404);
    await expectConforms(accountScheduleContract, 'PUT', notFound);
  });

  it('POST /accounts: 201, its replay, 400 without a key, 422 for fields and a failed check, 403; DELETE /accounts/{id}: 200, 404', async () => {
    const server = createServer((req, res) => {
      const ok = req.headers.authorization === 'Bearer contract-token';
      const body =
        req.url === '/api/v1/instance'
          ? { uri: 'contract.example' }
          : ok
            ? { id: '7', username: 'c', acct: 'c', display_name: 'C', url: 'https://contract.example/@c' }
            : { error: 'The access token is invalid' };
      res.writeHead(req.url === '/api/v1/instance' || ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const instanceUrl = `http://localhost:${(server.address() as AddressInfo).port}`;
    const writer = await makeScopedApiKey(fixture.db, tenant.workspace.id, ['accounts:write']);
    const connect = (body: unknown, key: string | undefined = randomUUID(), token = writer) =>
      connectAccount(apiRequest('/api/v1/accounts', { method: 'POST', token, key, body }), noParams);
    const body = { provider: 'mastodon', instanceUrl, accessToken: 'contract-token' };
    const key = randomUUID();
    const created = await connect(body, key);
    expect(created.status).toBe(201);
    const account = await expectConforms(accountsContract, 'POST', created);
    const replay = await connect(body, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await expectConforms(accountsContract, 'POST', replay);
    const keyless = await connectAccount(
      apiRequest('/api/v1/accounts', { method: 'POST', token: writer, body }),
      noParams,
    );
    expect(keyless.status).toBe(400);
    await expectConforms(accountsContract, 'POST', keyless);
    for (const refused of [
      await connect({ provider: 'mastodon', instanceUrl: 'ftp://x', accessToken: 'contract-token' }),
      await connect({ ...body, accessToken: 'wrong-contract-token' }),
      await connect({ ...body, accessToken: 'wrong-contract-token' }, key),
    ]) {
      expect(refused.status).toBe(422);
      await expectConforms(accountsContract, 'POST', refused);
    }
    const forbidden = await connect(body, randomUUID(), tenant.token);
    expect(forbidden.status).toBe(403);
    await expectConforms(accountsContract, 'POST', forbidden);

    const id = account.id as string;
    const del = () =>
      disconnectAccount(apiRequest(`/api/v1/accounts/${id}`, { method: 'DELETE', token: writer }), idParams(id));
    const gone = await del();
    expect(gone.status).toBe(200);
    await expectConforms(accountContract, 'DELETE', gone);
    const again = await del();
    expect(again.status).toBe(404);
    await expectConforms(accountContract, 'DELETE', again);
  });

  it('GET /media/{id}/content: the image with its type, 404 for an unknown id', async () => {
    const form = new FormData();
    form.set('file', new Blob([Buffer.from(await makeImage('png', { seed: 98 }))]), 'image');
    form.set('altText', 'Contract');
    const uploaded = await uploadMedia(
      new Request('http://localhost/api/v1/media', {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.token}`, 'idempotency-key': randomUUID() },
        body: form,
      }),
      noParams,
    );
    const { id } = (await uploaded.json()) as { id: string };
    const served = await getMediaContent(
      apiRequest(`/api/v1/media/${id}/content`, { token: tenant.token }),
      idParams(id),
    );
    expect(served.status).toBe(200);
    // Not JSON: the documented status and Content-Type.
    const documented = allResponses(mediaContentContract.operations.GET!)[200]!;
    expect(documented.headers!.safeParse({ 'Content-Type': served.headers.get('content-type') }).success).toBe(true);
    const missing = randomUUID();
    const notFound = await getMediaContent(
      apiRequest(`/api/v1/media/${missing}/content`, { token: tenant.token }),
      idParams(missing),
    );
    expect(notFound.status).toBe(404);
    await expectConforms(mediaContentContract, 'GET', notFound);
  });

  it('POST /media: 201, its replay, 400 without a key, 415 when not multipart, 422 for what is not an image', async () => {
    const upload = (key: string | undefined, body: BodyInit, contentType?: string) =>
      uploadMedia(
        new Request('http://localhost/api/v1/media', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${tenant.token}`,
            ...(key ? { 'idempotency-key': key } : {}),
            ...(contentType ? { 'content-type': contentType } : {}),
          },
          body,
        }),
        noParams,
      );
    const form = (bytes: Uint8Array) => {
      const f = new FormData();
      f.set('file', new Blob([Buffer.from(bytes)]), 'image');
      f.set('altText', 'Contract');
      return f;
    };
    const key = randomUUID();
    const png = await makeImage('png', { seed: 99 });
    const created = await upload(key, form(png));
    expect(created.status).toBe(201);
    await expectConforms(mediaContract, 'POST', created);
    const replay = await upload(key, form(png));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await expectConforms(mediaContract, 'POST', replay);
    await expectConforms(mediaContract, 'POST', await upload(undefined, form(png)));
    await expectConforms(mediaContract, 'POST', await upload(randomUUID(), '{}', 'application/json'));
    const invalid = await upload(randomUUID(), form(new TextEncoder().encode('no image')));
    expect(invalid.status).toBe(422);
    await expectConforms(mediaContract, 'POST', invalid);
  });

  it('POST /imports: 201 with created, invalid and already-imported rows, its replay, 400, 422 for a bad file, 415', async () => {
    const handle = (await makeAccount(fixture.db, tenant.workspace.id, { handle: '@conformance' })).handle;
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const csv = `text,accounts,scheduled_at\nconformance import,${handle},${later}\nbad,@nobody,${later}\n`;
    const send = (key: string | undefined, body: string, type?: string) => {
      const headers: Record<string, string> = { authorization: `Bearer ${tenant.token}` };
      if (key) headers['idempotency-key'] = key;
      let payload: BodyInit = body;
      if (type) headers['content-type'] = type;
      else {
        const form = new FormData();
        form.set('file', new Blob([body], { type: 'text/csv' }), 'conformance.csv');
        payload = form;
      }
      return importPosts(
        new Request('http://localhost/api/v1/imports', { method: 'POST', headers, body: payload }),
        noParams,
      );
    };
    const key = randomUUID();
    const created = await send(key, csv);
    expect(created.status).toBe(201);
    await expectConforms(importsContract, 'POST', created);
    const replay = await send(key, csv);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await expectConforms(importsContract, 'POST', replay);
    const again = await send(randomUUID(), csv);
    expect(((await again.clone().json()) as { counts: { alreadyImported: number } }).counts.alreadyImported).toBe(1);
    await expectConforms(importsContract, 'POST', again);
    await expectConforms(importsContract, 'POST', await send(undefined, csv));
    await expectConforms(importsContract, 'POST', await send(randomUUID(), 'a,b\n1,2\n'));
    await expectConforms(importsContract, 'POST', await send(randomUUID(), csv, 'text/csv'));
  });

  it('GET /inbox and POST /inbox/{id}/reply: a page, 400; the answer, its replay, 409 naming who answered, 422, 404', async () => {
    const token = await makeScopedApiKey(fixture.db, tenant.workspace.id, ['inbox:read', 'inbox:write']);
    const item = await storeInboxItem(fixture.db, {
      workspaceId: tenant.workspace.id,
      accountId: tenant.accounts[0]!.id,
    });
    const page = await listInbox(apiRequest('/api/v1/inbox?status=all', { token }), noParams);
    expect(page.status).toBe(200);
    await expectConforms(inboxContract, 'GET', page);
    await expectConforms(
      inboxContract,
      'GET',
      await listInbox(apiRequest('/api/v1/inbox?kind=tweet', { token }), noParams),
    );
    const send = (body: unknown, key = randomUUID(), id = item.id) =>
      replyToInboxItem(apiRequest(`/api/v1/inbox/${id}/reply`, { method: 'POST', token, key, body }), idParams(id));
    const key = randomUUID();
    const created = await send({ text: 'Thanks for writing!' }, key);
    expect(created.status).toBe(201);
    await expectConforms(inboxReplyContract, 'POST', created);
    await expectConforms(inboxReplyContract, 'POST', await send({ text: 'Thanks for writing!' }, key));
    const taken = await send({ text: 'Me too' });
    expect(taken.status).toBe(409);
    await expectConforms(inboxReplyContract, 'POST', taken);
    const elsewhere = await storeInboxItem(fixture.db, {
      workspaceId: tenant.workspace.id,
      accountId: tenant.accounts[0]!.id,
    });
    await recordOwnMessages(fixture.db, {
      accountId: tenant.accounts[0]!.id,
      messages: [{ platformId: 'own-1', inReplyTo: elsewhere.platformId, conversationId: null, createdAt: new Date() }],
    });
    const onPlatform = await send({ text: 'Hi' }, randomUUID(), elsewhere.id);
    expect(onPlatform.status).toBe(409);
    await expectConforms(inboxReplyContract, 'POST', onPlatform);
    await expectConforms(inboxReplyContract, 'POST', await send({ text: '' }));
    await expectConforms(inboxReplyContract, 'POST', await send({ text: 'x' }, randomUUID(), randomUUID()));
  });

  it('GET, POST /snippets, /templates; GET, PATCH, DELETE /templates/{id}, DELETE /snippets/{id}: 201 (and its replay), 400, 422, 200, 204, 404', async () => {
    const { token } = tenant;
    const snippet = { name: `tags-${randomUUID().slice(0, 6)}`, kind: 'hashtags', text: '#launch #spring' };
    const key = randomUUID();
    const postSnippet = (body: unknown, k: string | null = randomUUID()) =>
      createSnippet(apiRequest('/api/v1/snippets', { method: 'POST', token, key: k ?? undefined, body }), noParams);
    const made = await postSnippet(snippet, key);
    expect(made.status).toBe(201);
    const created = await expectConforms(snippetsContract, 'POST', made);
    const replay = await postSnippet(snippet, key);
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    await expectConforms(snippetsContract, 'POST', replay);
    const again = await postSnippet(snippet);
    expect(again.status).toBe(422);
    await expectConforms(snippetsContract, 'POST', again);
    const keyless = await postSnippet(snippet, null);
    expect(keyless.status).toBe(400);
    await expectConforms(snippetsContract, 'POST', keyless);
    await expectConforms(
      snippetsContract,
      'GET',
      await listSnippets(apiRequest('/api/v1/snippets', { token }), noParams),
    );
    const id = created.id as string;
    const del = () => deleteSnippet(apiRequest(`/api/v1/snippets/${id}`, { method: 'DELETE', token }), idParams(id));
    expect((await del()).status).toBe(204);
    const gone = await del();
    expect(gone.status).toBe(404);
    await expectConforms(snippetContract, 'DELETE', gone);

    const template = {
      name: `launch-${randomUUID().slice(0, 6)}`,
      text: 'New: {{product}}',
      accountIds: [tenant.accounts[0]!.id],
      timeOfDay: '09:30',
    };
    const t = await createTemplate(
      apiRequest('/api/v1/templates', { method: 'POST', token, key: randomUUID(), body: template }),
      noParams,
    );
    expect(t.status).toBe(201);
    const tid = (await expectConforms(templatesContract, 'POST', t)).id as string;
    const foreign = { ...template, name: 'other', accountIds: [randomUUID()] };
    const refused = await createTemplate(
      apiRequest('/api/v1/templates', { method: 'POST', token, key: randomUUID(), body: foreign }),
      noParams,
    );
    expect(refused.status).toBe(422);
    await expectConforms(templatesContract, 'POST', refused);
    const patch = (body: unknown, id = tid) =>
      patchTemplate(
        apiRequest(`/api/v1/templates/${id}`, { method: 'PATCH', token, key: randomUUID(), body }),
        idParams(id),
      );
    const changed = await patch({ text: 'Now: {{product}}', firstComment: null });
    expect(changed.status).toBe(200);
    await expectConforms(templateContract, 'PATCH', changed);
    const missing = await patch({ text: 'x' }, randomUUID());
    expect(missing.status).toBe(404);
    await expectConforms(templateContract, 'PATCH', missing);
    const empty = await patch({});
    expect(empty.status).toBe(422);
    await expectConforms(templateContract, 'PATCH', empty);
    await expectConforms(
      templatesContract,
      'GET',
      await listTemplates(apiRequest('/api/v1/templates', { token }), noParams),
    );
    await expectConforms(
      templateContract,
      'GET',
      await getTemplate(apiRequest(`/api/v1/templates/${tid}`, { token }), idParams(tid)),
    );
    expect(
      (await deleteTemplate(apiRequest(`/api/v1/templates/${tid}`, { method: 'DELETE', token }), idParams(tid))).status,
    ).toBe(204);
    await expectConforms(
      templateContract,
      'GET',
      await getTemplate(apiRequest(`/api/v1/templates/${tid}`, { token }), idParams(tid)),
    );
  });

  it('GET, POST /webhook-endpoints and DELETE /webhook-endpoints/{id}: 201 with the secret, 403, 422, 204, 404', async () => {
    const path = '/api/v1/webhook-endpoints';
    const body = { url: 'https://93.184.215.14/hooks', events: ['delivery.sent'] };
    const refused = await createWebhookEndpoint(
      apiRequest(path, { method: 'POST', token: tenant.token, body }),
      noParams,
    );
    expect(refused.status).toBe(403);
    await expectConforms(webhookEndpointsContract, 'POST', refused);
    const token = await makeScopedApiKey(fixture.db, tenant.workspace.id, ['webhooks:write']);
    const created = await createWebhookEndpoint(apiRequest(path, { method: 'POST', token, body }), noParams);
    expect(created.status).toBe(201);
    const endpoint = await expectConforms(webhookEndpointsContract, 'POST', created);
    const internal = { ...body, url: 'http://10.0.0.1/hooks' };
    const invalid = await createWebhookEndpoint(apiRequest(path, { method: 'POST', token, body: internal }), noParams);
    expect(invalid.status).toBe(422);
    await expectConforms(webhookEndpointsContract, 'POST', invalid);
    const list = await listWebhookEndpoints(apiRequest(path, { token }), noParams);
    expect((await expectConforms(webhookEndpointsContract, 'GET', list)).data).toHaveLength(1);
    const id = endpoint.id as string;
    const deleted = await deleteWebhookEndpoint(apiRequest(`${path}/${id}`, { method: 'DELETE', token }), idParams(id));
    expect(deleted.status).toBe(204);
    const gone = await deleteWebhookEndpoint(apiRequest(`${path}/${id}`, { method: 'DELETE', token }), idParams(id));
    expect(gone.status).toBe(404);
    await expectConforms(webhookEndpointContract, 'DELETE', gone);
  });
});
