import { getDb } from '@/db/client';
import { receivePlatformWebhook, verifySubscription } from '@/lib/platform-webhooks/receive';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ network: string }> };

/** A platform's subscription check (Meta: hub.challenge). */
export async function GET(request: Request, context: Context) {
  return verifySubscription((await context.params).network, new URL(request.url));
}

/** A platform's events, signed with its app secret (lib/platform-webhooks/receive.ts). */
export async function POST(request: Request, context: Context) {
  return receivePlatformWebhook(getDb(), (await context.params).network, request);
}
