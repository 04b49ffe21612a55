import {
  CONTAINER_RETRY_MS,
  codeIs,
  graphClassifier,
  httpStatus,
  metaGraphRules,
  saidBy,
} from '../meta-graph/classifier';
import { INSTAGRAM_NETWORK } from '../meta-graph/network';
import type { Rule } from '../classify';

/** Instagram does not say when a spent publishing limit frees up (a moving 24 h): look again in half an hour. */
export const PUBLISHING_LIMIT_RETRY_MS = 30 * 60_000;
const said = saidBy('Instagram');

/** Instagram's own refusals, before Graph's shared rows (developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes). */
const INSTAGRAM_ROWS: readonly Rule[] = [
  {
    // 9007 / 2207027: "the media is not ready for publishing, please wait for a moment" (still processing).
    id: 'instagram-media-not-ready',
    when: codeIs((code) => code === 9007),
    then: (raw, { now }) => ({
      outcome: 'not_sent',
      httpStatus: httpStatus(raw),
      retryAt: new Date(now.getTime() + CONTAINER_RETRY_MS),
      reason: 'Instagram is still processing the media; nothing was published yet.' + said(raw),
    }),
  },
  {
    // 9 / 2207042: "the maximum number of posts that can be published in a 24-hour period has been reached".
    id: 'instagram-publishing-limit',
    when: codeIs((code, error) => code === 9 && error.subcode === 2207042),
    then: (raw, { now }) => ({
      outcome: 'not_sent',
      httpStatus: httpStatus(raw),
      retryAt: new Date(now.getTime() + PUBLISHING_LIMIT_RETRY_MS),
      reason:
        'This account has used its Instagram publishing limit for the last 24 hours; nothing was published.' +
        said(raw),
    }),
  },
  {
    // 352 (unsupported video format), 36000–36004 (image size, ratio, format): the media itself, not the request.
    id: 'instagram-media-refused',
    when: codeIs((code) => code === 352 || (code >= 36_000 && code <= 36_004)),
    then: (raw) => ({
      outcome: 'failed',
      httpStatus: httpStatus(raw),
      reason: 'Instagram refused the media (format, size or aspect ratio); nothing was published.' + said(raw),
    }),
  },
];

export const INSTAGRAM_RULES = metaGraphRules(INSTAGRAM_NETWORK, INSTAGRAM_ROWS);
export const classifyInstagram = graphClassifier(INSTAGRAM_RULES);
