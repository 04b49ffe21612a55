import { sendOnce } from '@/lib/net/send';
import type { ResolvedAccount } from '../definition';
import type { InboundItem, InboxReader, OwnMessage } from '../inbox-types';
import { perPostStream } from '../inbox-per-post';
import { asRecord, asString, readJson } from '../read';
import type { ProviderTransport } from '../transport';
import { YOUTUBE_RULES } from './classifier';

// What people say to a YouTube channel (docs/inbox.md#networks): the comment threads on each of its videos of the last
// 14 days (commentThreads.list?videoId=…, one quota unit a call), newest first; the channel's own comments (its channel
// id as the author's) mark what they answer.

export function createYoutubeInboxReader(account: ResolvedAccount, send: ProviderTransport = sendOnce): InboxReader {
  const base = account.baseUrl.replace(/\/+$/, '');
  const comments = perPostStream('comments', async (videoId, input, pageToken) => {
    const query = new URLSearchParams({
      part: 'snippet,replies',
      videoId,
      order: 'time',
      maxResults: '50',
      textFormat: 'plainText',
      ...(pageToken ? { pageToken } : {}),
    });
    const { body } = await readJson(
      {
        url: `${base}/youtube/v3/commentThreads?${query}`,
        headers: { authorization: `Bearer ${account.accessToken}` },
        outbound: account.outbound,
        timeoutMs: input.timeoutMs,
        signal: input.signal,
      },
      YOUTUBE_RULES,
      send,
    );
    const items: InboundItem[] = [];
    const own: OwnMessage[] = [];
    const threads = (Array.isArray(asRecord(body).items) ? (asRecord(body).items as unknown[]) : []).map(asRecord);
    for (const thread of threads) {
      const top = asRecord(asRecord(thread.snippet).topLevelComment);
      const replies = (
        Array.isArray(asRecord(thread.replies).comments) ? (asRecord(thread.replies).comments as unknown[]) : []
      ).map(asRecord);
      for (const comment of [top, ...replies]) {
        const id = asString(comment.id);
        const s = asRecord(comment.snippet);
        if (!id) continue;
        const author = asString(asRecord(s.authorChannelId).value) ?? null;
        const inReplyTo = asString(s.parentId) ?? videoId;
        const createdAt = new Date(String(s.publishedAt));
        if (author === account.platformUserId) {
          own.push({
            platformId: id,
            inReplyTo,
            conversationId: null,
            createdAt,
            text: asString(s.textOriginal) ?? asString(s.textDisplay) ?? null,
          });
          continue;
        }
        const name = asString(s.authorDisplayName) ?? 'Someone';
        items.push({
          platformId: id,
          kind: 'comment',
          author: { id: author, handle: name, name },
          text: String(s.textOriginal ?? s.textDisplay ?? ''),
          createdAt,
          url: null,
          inReplyTo,
          conversationId: videoId,
          media: [],
        });
      }
    }
    // `nextPageToken` is present only while another page of threads is waiting.
    return { items, own, next: asString(asRecord(body).nextPageToken) ?? null };
  });
  return { streams: [comments] };
}
