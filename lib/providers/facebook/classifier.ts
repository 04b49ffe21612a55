import type { Rule } from '../classify';
import { asRecord } from '../read';
import type { RawOutcome } from '../types';
import { codeIs, graphClassifier, httpStatus, metaGraphRules, saidBy } from '../meta-graph/classifier';
import { FACEBOOK_NETWORK } from '../meta-graph/network';

const said = saidBy('Facebook');

/**
 * Facebook's Business Use Case throttle (developers.facebook.com/docs/graph-api/overview/rate-limiting): the page's
 * `X-Business-Use-Case-Usage` header holds, per business object, `estimated_time_to_regain_access` in minutes; the
 * app's `X-App-Usage` says no time. The longest wait named wins; none named → the shared minute.
 */
export function businessUseCaseRetryAt(raw: RawOutcome, now: Date): Date | undefined {
  if (raw.type === 'error') return undefined;
  const header = raw.headers['x-business-use-case-usage'];
  if (!header) return undefined;
  let minutes = 0;
  try {
    for (const entries of Object.values(asRecord(JSON.parse(header))))
      for (const entry of Array.isArray(entries) ? entries : [])
        minutes = Math.max(minutes, Number(asRecord(entry).estimated_time_to_regain_access) || 0);
  } catch {
    return undefined;
  }
  return minutes > 0 ? new Date(now.getTime() + minutes * 60_000) : undefined;
}

/**
 * Facebook's own rows, before Graph's shared ones (developers.facebook.com/docs/graph-api/guides/error-handling and
 * …/docs/pages-api/posts): 506 is Facebook refusing a post as a duplicate of a recent one — evidence that a copy may
 * already be there (ours, from an attempt whose answer was lost), never a success and never a plain failure.
 */
const FACEBOOK_ROWS: readonly Rule[] = [
  {
    id: 'facebook-duplicate-post',
    when: codeIs((code) => code === 506),
    then: (raw) => ({
      outcome: 'ambiguous',
      httpStatus: httpStatus(raw),
      reason:
        'Facebook refused the post as a duplicate of a recent one: an earlier attempt may have published it; the page’s posts settle it.' +
        said(raw),
      evidence: { duplicate: true },
    }),
  },
  {
    // 6000/6001: "There was a problem uploading your video file" — the bytes, refused before any post.
    id: 'facebook-video-refused',
    when: codeIs((code) => code === 6000 || code === 6001 || code === 390),
    then: (raw) => ({
      outcome: 'failed',
      httpStatus: httpStatus(raw),
      reason: 'Facebook refused the video file; nothing was published.' + said(raw),
    }),
  },
  {
    // 324 "Missing or invalid image file", 1366046 (photo too large or not an image).
    id: 'facebook-photo-refused',
    when: codeIs((code, error) => code === 324 || error.subcode === 1366046),
    then: (raw) => ({
      outcome: 'failed',
      httpStatus: httpStatus(raw),
      reason: 'Facebook refused a photo (not an image, or too large); nothing was published.' + said(raw),
    }),
  },
];

/** 80001: "There have been too many calls to this Page account" (the page's Business Use Case limit). */
export const FACEBOOK_RULES = metaGraphRules(FACEBOOK_NETWORK, FACEBOOK_ROWS, {
  throttleCodes: [80001],
  throttleRetryAt: businessUseCaseRetryAt,
});
export const classifyFacebook = graphClassifier(FACEBOOK_RULES);
