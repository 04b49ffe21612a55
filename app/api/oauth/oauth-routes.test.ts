import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { socialAccounts } from '@/db/schema';
import { addMembership } from '@/db/queries/workspaces';
import { lastTestDatabaseUrl } from '@/testing/db/test-database';
import type { WorkspaceContext } from '@/lib/auth/session';
import { startOAuthSandbox } from '@/testing/oauth';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';

// The OAuth routes called the way Next calls them; only the cookie's session lookup is replaced. The sandbox runs
// on its own port, which is "this app's origin" here (PORT), so the token exchange reaches it as in production.
let context: WorkspaceContext | null = null;
vi.mock('@/lib/auth/session', () => ({ getWorkspace: async () => context }));

const sandbox = await startOAuthSandbox();
process.env.DATABASE_URL = lastTestDatabaseUrl();
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
process.env.PORT = new URL(sandbox.url).port;
const start = await import('./[provider]/start/route');
const callback = await import('./[provider]/callback/route');

const params = (provider: string) => ({ params: Promise.resolve({ provider }) });
const get = (path: string) => new Request(`${sandbox.url}${path}`);
const location = (response: Response) => new URL(response.headers.get('location')!);

async function signedIn(role: 'admin' | 'viewer') {
  const admin = await sandbox.admin();
  await addMembership(sandbox.db, { workspaceId: admin.workspaceId, userId: admin.userId, role });
  context = {
    user: { id: admin.userId, email: 'a@test.test', name: 'a' },
    workspace: { id: admin.workspaceId, slug: 'w', name: 'w' },
    role,
    memberships: [],
  };
  sandbox.signIn(admin.workspaceId);
  return admin;
}

beforeAll(() => {
  context = null;
});

describe('GET /api/oauth/<network>/start and /callback', () => {
  it('an admin goes to the sandbox consent page, authorizes, and lands on /accounts with the account connected', async () => {
    const { workspaceId } = await signedIn('admin');
    const started = await start.GET(get('/api/oauth/x/start?sandbox=1'), params('x'));
    expect(started.status).toBe(303);
    const consent = location(started);
    expect(consent.pathname).toBe('/api/sandbox/x/oauth/authorize');
    expect(consent.searchParams.get('redirect_uri')).toBe(`${sandbox.url}/api/oauth/x/callback`);

    const authorized = await fetch(consent, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ decision: 'authorize', account: 'new' }),
    });
    const back = location(authorized);
    expect(back.pathname).toBe('/api/oauth/x/callback');
    const done = await callback.GET(get(back.pathname + back.search), params('x'));
    expect(done.status).toBe(303);
    const accounts = location(done);
    expect(accounts.pathname).toBe('/accounts');
    expect(accounts.searchParams.get('oauth')).toBe('connected');
    const [row] = await sandbox.db
      .select()
      .from(socialAccounts)
      .where(eq(socialAccounts.id, accounts.searchParams.get('accounts')!));
    expect(row).toMatchObject({ workspaceId, provider: 'x', sandbox: true, tokenStatus: 'ok' });

    // The same callback again: refused (single use), with a message, not a 500.
    const again = await callback.GET(get(back.pathname + back.search), params('x'));
    expect(location(again).searchParams.get('oauth')).toBe('state_used');
  });

  it('refusals land on /accounts with a code (never a 500): viewer, unknown network, bad state, not configured', async () => {
    await signedIn('viewer');
    expect(location(await start.GET(get('/api/oauth/x/start?sandbox=1'), params('x'))).search).toBe(
      '?oauth=forbidden&network=x',
    );
    expect(location(await callback.GET(get('/api/oauth/x/callback?state=s&code=c'), params('x'))).search).toBe(
      '?oauth=forbidden&network=x',
    );
    await signedIn('admin');
    expect(
      location(await start.GET(get('/api/oauth/myspace/start'), params('myspace'))).searchParams.get('oauth'),
    ).toBe('unknown_network');
    expect(
      location(await callback.GET(get('/api/oauth/x/callback?state=forged&code=c'), params('x'))).searchParams.get(
        'oauth',
      ),
    ).toBe('unknown_state');
    expect(location(await callback.GET(get('/api/oauth/x/callback'), params('x'))).searchParams.get('oauth')).toBe(
      'bad_callback',
    );
    // X_CLIENT_ID is blank here: the real flow is off; Mastodon has no OAuth connect at all.
    expect(location(await start.GET(get('/api/oauth/x/start'), params('x'))).searchParams.get('oauth')).toBe(
      'not_configured',
    );
    expect(
      location(await start.GET(get('/api/oauth/mastodon/start'), params('mastodon'))).searchParams.get('oauth'),
    ).toBe('no_oauth');
  });

  it('signed out: start sends the browser to sign in first', async () => {
    context = null;
    const response = await start.GET(get('/api/oauth/x/start?sandbox=1'), params('x'));
    expect(location(response).pathname).toBe('/signin');
    expect(location(response).searchParams.get('callbackUrl')).toBe('/api/oauth/x/start?sandbox=1');
  });
});
