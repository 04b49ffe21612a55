import { receiveInbound } from '@/sandbox/behaviour/inbound';
import { withListingFaults } from '@/sandbox/behaviour/faults';
import { bearerToken } from '@/sandbox/http/request';
import type { SandboxDeps, SandboxPost } from '@/sandbox/store/types';
import { SANDBOX_PROJECT, YOUTUBE_DAILY_QUOTA } from './api';
import { badRequest, googleError, googleJson, quotaExceeded, unauthorized } from './errors';
import { pacificDay } from './uploads';

// The comments on a channel's video, as the YouTube Data API serves them (developers.google.com/youtube/v3/docs/
// commentThreads/list): GET /youtube/v3/commentThreads?part=snippet&videoId=…, `order` time (the default) or
// relevance, `maxResults` 1–100 (default 20), `pageToken`, `textFormat`; one quota unit a call.

export async function handleYoutubeInbox(request: Request, path: string, deps: SandboxDeps): Promise<Response | null> {
  if (path !== '/youtube/v3/commentThreads' || request.method !== 'GET') return null;
  const token = bearerToken(request);
  const viewer = token ? await deps.store.authenticate('youtube', token) : null;
  if (!viewer) return unauthorized();
  const query = new URL(request.url).searchParams;
  const parts = (query.get('part') ?? '').split(',').filter(Boolean);
  if (parts.length === 0 || parts.some((p) => p !== 'snippet' && p !== 'replies' && p !== 'id'))
    return badRequest('invalidPart', 'part must name snippet, replies or id.');
  const videoId = query.get('videoId');
  if (!videoId) return badRequest('missingRequiredParameter', 'This sandbox lists comment threads by videoId.');
  const maxResults = query.has('maxResults') ? Number(query.get('maxResults')) : 20;
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 100)
    return badRequest('invalidMaxResults', 'maxResults must be from 1 to 100.');
  const token2 = query.get('pageToken');
  const from = token2 ? Number(Buffer.from(token2, 'base64url').toString()) : 0;
  if (!Number.isInteger(from) || from < 0) return badRequest('invalidPageToken', 'The pageToken is invalid.');
  const video = await deps.store.getPost(videoId);
  if (!video || video.accountId !== viewer.id || video.deletedAt)
    return googleError(404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.');
  if (
    !(await deps.store.spendYoutubeQuota({
      project: SANDBOX_PROJECT,
      day: pacificDay(new Date()),
      units: 1,
      limit: YOUTUBE_DAILY_QUOTA,
    }))
  )
    return quotaExceeded();
  await receiveInbound(deps.store, viewer);
  const read = await withListingFaults(deps, { platform: 'youtube', accountId: viewer.id });
  if (read instanceof Response) return read;
  const all = await deps.store.listReplies(video.id, { createdUpTo: read.createdUpTo, limit: 1_000 });
  const commentJson = async (comment: SandboxPost, parentId?: string) => {
    const author = (await deps.store.getAccountById(comment.accountId))!;
    const snippet = {
      channelId: viewer.platformUserId,
      videoId: video.id,
      textDisplay: comment.text,
      textOriginal: comment.text,
      authorDisplayName: author.displayName ?? author.handle,
      authorChannelUrl: `http://www.youtube.com/channel/${author.platformUserId}`,
      authorChannelId: { value: author.platformUserId },
      canRate: true,
      viewerRating: 'none',
      likeCount: 0,
      publishedAt: comment.createdAt.toISOString(),
      updatedAt: comment.createdAt.toISOString(),
      ...(parentId ? { parentId } : {}),
    };
    return { kind: 'youtube#comment', id: comment.id, snippet };
  };
  const items = [];
  for (const comment of all.slice(from, from + maxResults)) {
    // `replies`: the replies to the thread's top-level comment (the channel's own answers among them), oldest first.
    const replies = parts.includes('replies')
      ? (await deps.store.listReplies(comment.id, { createdUpTo: read.createdUpTo, limit: 100 })).reverse()
      : [];
    items.push({
      kind: 'youtube#commentThread',
      id: comment.id,
      snippet: {
        channelId: viewer.platformUserId,
        videoId: video.id,
        topLevelComment: await commentJson(comment),
        canReply: true,
        totalReplyCount: replies.length,
        isPublic: true,
      },
      ...(replies.length > 0
        ? { replies: { comments: await Promise.all(replies.map((r) => commentJson(r, comment.id))) } }
        : {}),
    });
  }
  return googleJson(200, {
    kind: 'youtube#commentThreadListResponse',
    ...(from + maxResults < all.length
      ? { nextPageToken: Buffer.from(String(from + maxResults)).toString('base64url') }
      : {}),
    pageInfo: { totalResults: all.length, resultsPerPage: maxResults },
    items,
  });
}
