import type { Database } from '@/db/client';
import { applyPlatformEvent, recordPlatformEvent, type IncomingPlatformEvent } from '@/db/queries/platform-events';
import type { ProviderName } from '@/db/schema';
import { getEnv } from '@/lib/env';
import { problem } from '@/lib/http/problem';
import { logger } from '@/lib/logging/logger';
import { metaEvents } from './meta';
import { hubSignatureValid, sameSecret, sandboxWebhookSecret, tiktokSignatureValid } from './signature';
import { tiktokEvents } from './tiktok';

/** Larger bodies are refused before they are read whole (Meta batches up to 1,000 changes, far below this). */
const MAX_BODY_BYTES = 1024 * 1024;

type InboundNetwork = {
  /** The env variables of the app secret that signs its webhooks and of the token its subscription check sends. */
  secretEnv: 'INSTAGRAM_APP_SECRET' | 'TIKTOK_CLIENT_SECRET';
  verifyTokenEnv?: 'INSTAGRAM_WEBHOOK_VERIFY_TOKEN';
  /** The header that carries the signature, and its check of the raw body under one secret. */
  signatureHeader: string;
  signatureValid: (body: Uint8Array, header: string | null, secret: string) => boolean;
  events: (
    body: unknown,
    target: Pick<IncomingPlatformEvent, 'provider' | 'sandbox'>,
  ) => IncomingPlatformEvent[] | null;
};

/** The networks whose webhooks arrive at `/api/webhooks/<network>` (docs/networks.md#platform-webhooks). */
export const INBOUND_NETWORKS: Partial<Record<ProviderName, InboundNetwork>> = {
  instagram: {
    secretEnv: 'INSTAGRAM_APP_SECRET',
    verifyTokenEnv: 'INSTAGRAM_WEBHOOK_VERIFY_TOKEN',
    signatureHeader: 'X-Hub-Signature-256',
    signatureValid: hubSignatureValid,
    events: metaEvents,
  },
  // TikTok signs with the app's client secret; its Content Posting events name the publish (publish_id).
  tiktok: {
    secretEnv: 'TIKTOK_CLIENT_SECRET',
    signatureHeader: 'TikTok-Signature',
    signatureValid: (body, header, secret) => tiktokSignatureValid(body, header, secret),
    events: tiktokEvents,
  },
};

/**
 * The body, counted as it streams and abandoned past `max` bytes (an unauthenticated caller may send no
 * Content-Length, or a false one); null when it is larger.
 */
async function readAtMost(request: Request, max: number): Promise<Uint8Array | null> {
  if (Number(request.headers.get('content-length') ?? 0) > max) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const notFound = () =>
  problem({ status: 404, title: 'Not Found', detail: 'No platform webhooks are received for this network.' });

/**
 * Meta's subscription check: `GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…` answers the challenge
 * when the token is the one configured, else 403.
 */
export function verifySubscription(network: string, url: URL): Response {
  const inbound = INBOUND_NETWORKS[network as ProviderName];
  if (!inbound) return notFound();
  const expected = inbound.verifyTokenEnv ? getEnv()[inbound.verifyTokenEnv] : undefined;
  const params = url.searchParams;
  if (
    !expected ||
    params.get('hub.mode') !== 'subscribe' ||
    !sameSecret(params.get('hub.verify_token') ?? '', expected)
  )
    return problem({ status: 403, title: 'Forbidden', detail: 'The verify token does not match.' });
  return new Response(params.get('hub.challenge') ?? '', { status: 200, headers: { 'content-type': 'text/plain' } });
}

/**
 * One webhook delivery: the signature first (the network's app secret, or the sandbox's: then only sandbox accounts
 * match), nothing stored without it (401); then each event stored once and matched (db/queries/platform-events.ts).
 * A webhook reports, it never creates: nothing here makes a post, and no event moves a delivery back.
 */
export async function receivePlatformWebhook(db: Database, network: string, request: Request): Promise<Response> {
  const inbound = INBOUND_NETWORKS[network as ProviderName];
  if (!inbound) return notFound();
  const body = await readAtMost(request, MAX_BODY_BYTES);
  if (!body) return problem({ status: 413, title: 'Payload Too Large', detail: 'Webhook bodies are at most 1 MB.' });
  const env = getEnv();
  const signature = request.headers.get(inbound.signatureHeader);
  const live = env[inbound.secretEnv];
  const sandbox =
    env.sandboxEnabled &&
    inbound.signatureValid(body, signature, sandboxWebhookSecret(network, env.APP_ENCRYPTION_KEY));
  if (!sandbox && !(live && inbound.signatureValid(body, signature, live)))
    return problem({
      status: 401,
      title: 'Unauthorized',
      detail: `The ${inbound.signatureHeader} signature does not match.`,
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return problem({ status: 400, title: 'Bad Request', detail: 'The body is not JSON.' });
  }
  const events = inbound.events(parsed, { provider: network as ProviderName, sandbox });
  if (!events) return problem({ status: 422, title: 'Unprocessable Content', detail: 'The body names no entries.' });
  let stored = 0;
  for (const event of events) {
    const rows = await recordPlatformEvent(db, event);
    stored += rows.length;
    // Only a newly stored event is applied: a redelivery stored nothing, so it changes nothing.
    for (const row of rows)
      if (event.evidence && row.deliveryId)
        await applyPlatformEvent(db, { eventId: row.id, deliveryId: row.deliveryId });
  }
  logger.info({ network, sandbox, received: events.length, stored }, 'platform webhook');
  return Response.json({ received: events.length, stored });
}
