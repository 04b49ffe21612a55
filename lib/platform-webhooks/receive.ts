import type { Database } from '@/db/client';
import { applyPlatformEvent, recordPlatformEvent, type IncomingPlatformEvent } from '@/db/queries/platform-events';
import type { ProviderName } from '@/db/schema';
import { getEnv, type Env } from '@/lib/env';
import { problem } from '@/lib/http/problem';
import { logger } from '@/lib/logging/logger';
import { metaEvents } from './meta';
import { hubSignatureValid, sameSecret, sandboxWebhookSecret, tiktokSignatureValid, websubSecret } from './signature';
import { tiktokEvents } from './tiktok';
import { isYoutubeChannelTopic, parseAtom, youtubeFeedEvents } from './youtube';

/** Larger bodies are refused before they are read whole (Meta batches up to 1,000 changes, far below this). */
const MAX_BODY_BYTES = 1024 * 1024;

type InboundNetwork = {
  /** The live secret its events are signed with; blank: only the sandbox's signature is accepted. */
  secret: (env: Env) => string | undefined;
  /**
   * Where the signature travels and its check of the raw body under one secret (Meta: an HMAC-SHA256; a WebSub hub:
   * SHA-1 or SHA-256; TikTok: of `<t>.<body>`, with a timestamp).
   */
  signature: { header: string; valid: (body: Uint8Array, header: string | null, secret: string) => boolean };
  /** The body as the network sends it (Meta: JSON; a WebSub hub: the Atom feed), null when it is not. */
  parse: { kind: string; read: (body: Uint8Array) => unknown | null };
  events: (
    body: unknown,
    target: Pick<IncomingPlatformEvent, 'provider' | 'sandbox'>,
  ) => IncomingPlatformEvent[] | null;
  /** The subscription check's challenge to answer, or null (403). */
  challenge: (params: URLSearchParams, env: Env) => string | null;
};

const json = (body: Uint8Array): unknown | null => {
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return null;
  }
};

/**
 * Meta's webhooks (Instagram, Facebook): JSON signed `X-Hub-Signature-256` under the app secret; the subscription
 * check is `hub.mode=subscribe` with the verify token configured, its `hub.challenge` answered.
 */
function metaWebhooks(
  secret: (env: Env) => string | undefined,
  verifyToken: (env: Env) => string | undefined,
): InboundNetwork {
  return {
    secret,
    signature: {
      header: 'x-hub-signature-256',
      valid: (body, header, key) => hubSignatureValid(body, header, key, ['sha256']),
    },
    parse: { kind: 'JSON', read: json },
    events: metaEvents,
    challenge: (params, env) => {
      const expected = verifyToken(env);
      if (!expected || params.get('hub.mode') !== 'subscribe') return null;
      return sameSecret(params.get('hub.verify_token') ?? '', expected) ? (params.get('hub.challenge') ?? '') : null;
    },
  };
}

/** The networks whose webhooks arrive at `/api/webhooks/<network>` (docs/networks.md#platform-webhooks). */
export const INBOUND_NETWORKS: Partial<Record<ProviderName, InboundNetwork>> = {
  instagram: metaWebhooks(
    (env) => env.INSTAGRAM_APP_SECRET,
    (env) => env.INSTAGRAM_WEBHOOK_VERIFY_TOKEN,
  ),
  youtube: {
    // The hub.secret this install gives the hub when it subscribes a channel's feed (WebSub §5.1), derived from
    // APP_ENCRYPTION_KEY: no variable to set, and no other install can sign for it.
    secret: (env) => websubSecret('youtube', env.APP_ENCRYPTION_KEY),
    signature: {
      header: 'x-hub-signature',
      valid: (body, header, key) => hubSignatureValid(body, header, key, ['sha1', 'sha256']),
    },
    parse: { kind: 'an Atom feed', read: parseAtom },
    events: youtubeFeedEvents,
    // WebSub §5.3: the hub confirms a subscription of a channel's feed by its challenge. We never ask to unsubscribe,
    // so an unsubscription is refused: anyone may ask the hub for one, and confirming it would stop a feed unseen.
    challenge: (params) => {
      if (params.get('hub.mode') !== 'subscribe' || !isYoutubeChannelTopic(params.get('hub.topic'))) return null;
      return params.get('hub.challenge');
    },
  },
  // TikTok signs with the app's client secret; its Content Posting events name the publish (publish_id). It has no
  // subscription check (the callback is set in its developer portal).
  tiktok: {
    secret: (env) => env.TIKTOK_CLIENT_SECRET,
    signature: { header: 'tiktok-signature', valid: tiktokSignatureValid },
    parse: { kind: 'JSON', read: json },
    events: tiktokEvents,
    challenge: () => null,
  },
  // Facebook Pages: `feed` changes (a post published, a comment added) for the pages the app is subscribed to.
  facebook: metaWebhooks(
    (env) => env.FACEBOOK_APP_SECRET,
    (env) => env.FACEBOOK_WEBHOOK_VERIFY_TOKEN,
  ),
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
 * The subscription check (Meta: `hub.verify_token`; a WebSub hub: the topic): the challenge answered, else 403.
 */
export function verifySubscription(network: string, url: URL): Response {
  const inbound = INBOUND_NETWORKS[network as ProviderName];
  if (!inbound) return notFound();
  const challenge = inbound.challenge(url.searchParams, getEnv());
  if (challenge === null)
    return problem({ status: 403, title: 'Forbidden', detail: 'The subscription check does not match.' });
  return new Response(challenge, { status: 200, headers: { 'content-type': 'text/plain' } });
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
  const { header, valid } = inbound.signature;
  const signature = request.headers.get(header);
  const live = inbound.secret(env);
  const sandbox = env.sandboxEnabled && valid(body, signature, sandboxWebhookSecret(network, env.APP_ENCRYPTION_KEY));
  if (!sandbox && !(live && valid(body, signature, live)))
    return problem({ status: 401, title: 'Unauthorized', detail: `The ${header} signature does not match.` });
  const parsed = inbound.parse.read(body);
  if (parsed === null)
    return problem({ status: 400, title: 'Bad Request', detail: `The body is not ${inbound.parse.kind}.` });
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
