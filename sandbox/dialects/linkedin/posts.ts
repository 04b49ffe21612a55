import { parsePostId } from '@/sandbox/store/post-ids';
import type { SandboxPost } from '@/sandbox/store/types';

/** A sandbox post is a LinkedIn share: `urn:li:share:<id>` (ids are 19-digit numbers, like LinkedIn's). */
export const shareUrn = (id: string) => `urn:li:share:${id}`;

/** The sandbox post id a share URN names, or null. */
export function shareId(urn: string): string | null {
  const id = /^urn:li:share:(\d+)$/.exec(urn)?.[1];
  return id && parsePostId(id) !== null ? id : null;
}

/** A post as the Posts API returns it (commentary in little text, times in epoch milliseconds). */
export function linkedinPostJson(post: SandboxPost, authorUrn: string, toLittle: (text: string) => string) {
  const at = post.createdAt.getTime();
  return {
    id: shareUrn(post.id),
    author: authorUrn,
    commentary: toLittle(post.text),
    visibility: 'PUBLIC',
    distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    lifecycleState: 'PUBLISHED',
    lifecycleStateInfo: { isEditedByAuthor: false },
    isReshareDisabledByAuthor: false,
    createdAt: at,
    publishedAt: at,
    lastModifiedAt: at,
  };
}
