import type { ProviderTransport } from '../transport';
import type { ProviderClient, PublishInput, PublishMedia } from '../types';
import { createContainerClient } from '../meta-graph/client';
import { createGraph, type GraphAccount } from '../meta-graph/graph';
import { readThreadsFollowers, threadsPostMetrics } from '../meta-graph/insights';
import { THREADS_NETWORK } from '../meta-graph/network';
import { classifyThreads } from './classifier';

/** Threads fetches the image itself, from a signed URL of this app that expires (lib/media/signed-url.ts). */
const image = (item: PublishMedia) => ({ image_url: item.publicUrl!(), alt_text: item.altText });

/**
 * The Threads API (graph.threads.net, v1.0) with a long-lived user token: TEXT, IMAGE and CAROUSEL containers
 * (POST /{user}/threads; parameters in the query string, as Meta's examples), a reply by `reply_to_id`.
 */
export function createThreadsClient(account: GraphAccount, send?: ProviderTransport): ProviderClient {
  const graph = createGraph(THREADS_NETWORK, classifyThreads, account, send);
  const client = createContainerClient(
    {
      graph,
      refuse: (input: PublishInput) =>
        input.kind === 'dm'
          ? 'Threads has no direct messages.'
          : input.kind === 'reply' && !input.inReplyTo
            ? 'A reply needs the id of the post it answers.'
            : null,
      itemParams: (item) => ({ media_type: 'IMAGE', ...image(item), is_carousel_item: 'true' }),
      mainParams: (input, media, children) => {
        const text = { text: input.text, reply_to_id: input.kind === 'reply' ? input.inReplyTo : undefined };
        if (children) return { media_type: 'CAROUSEL', ...text, children: children.join(',') };
        if (media.length === 1) return { media_type: 'IMAGE', ...text, ...image(media[0]!) };
        return { media_type: 'TEXT', ...text };
      },
      // Threads fetches and processes images after answering; a text container is ready at once.
      processesMedia: (media) => media.length > 0,
      onExpired: 'new-container',
      listable: () => true,
    },
    { listings: ['threads', 'replies'] },
  );
  return {
    ...client,
    postMetrics: threadsPostMetrics(graph),
    readFollowers: (options) => readThreadsFollowers(graph, account.platformUserId, options),
  };
}
