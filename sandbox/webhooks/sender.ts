import { createHmac } from 'node:crypto';
import { logger } from '@/lib/logging/logger';
import type { Platform, SandboxWebhooks } from '@/sandbox/store/types';

export type { SandboxWebhooks };

// Webhooks as the platforms send them: at least once (TikTok: "webhook endpoints might receive the same event more than
// once"), after a delay, in no particular order, each copy signed when it is sent, retried on anything but a 2xx. The
// signatures are the platforms' own, written here from their documentation (not the app's receiver): Meta's
// X-Hub-Signature-256 over the raw body, TikTok's TikTok-Signature `t=<seconds>,s=<hex HMAC of "<t>.<body>">`.

export type SandboxWebhookConfig = {
  /** Where this network's webhooks go (the app's `/api/webhooks/<network>`); null: not sent. */
  url: (network: Platform) => string | null;
  /** The secret each network signs with (the app's sandbox secret for it). */
  secret: (network: Platform) => string;
  /** Each copy waits up to this long after the event (default 3 s): so copies and events arrive out of order. */
  maxDelayMs?: number;
  /** The share of events sent twice (default 0.5). */
  duplicateShare?: number;
  /** Attempts per copy while the app does not answer 2xx (default 4, a second apart, growing). */
  attempts?: number;
  random?: () => number;
};

export function signWebhook(network: Platform, raw: string, secret: string, at = Date.now()): Record<string, string> {
  if (network === 'tiktok') {
    const t = Math.floor(at / 1000);
    return { 'tiktok-signature': `t=${t},s=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}` };
  }
  return { 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createSandboxWebhooks(config: SandboxWebhookConfig): SandboxWebhooks {
  const random = config.random ?? Math.random;
  const maxDelayMs = config.maxDelayMs ?? 3_000;
  const pending = new Set<Promise<void>>();
  const delivered = new Map<Platform, number>();

  async function deliver(network: Platform, url: string, raw: string, waitMs: number) {
    await sleep(waitMs);
    for (let attempt = 0; attempt < (config.attempts ?? 4); attempt++) {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...signWebhook(network, raw, config.secret(network)) },
          body: raw,
          redirect: 'manual',
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer().catch(() => undefined);
        if (response.status >= 200 && response.status < 300) {
          delivered.set(network, (delivered.get(network) ?? 0) + 1);
          return;
        }
      } catch {
        // unreachable for now: tried again below, like the platforms' retries
      }
      await sleep(1_000 * 2 ** attempt);
    }
    logger.warn({ network }, 'sandbox webhook not delivered');
  }

  return {
    send(network, body, notBefore) {
      const url = config.url(network);
      if (!url) return;
      const raw = JSON.stringify(body);
      const from = Math.max(0, (notBefore?.getTime() ?? Date.now()) - Date.now());
      const copies = random() < (config.duplicateShare ?? 0.5) ? 2 : 1;
      for (let i = 0; i < copies; i++) {
        const sent = deliver(network, url, raw, from + Math.floor(random() * maxDelayMs)).finally(() =>
          pending.delete(sent),
        );
        pending.add(sent);
      }
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    delivered: (network) => delivered.get(network) ?? 0,
  };
}
