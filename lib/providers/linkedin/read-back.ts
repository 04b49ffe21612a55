import { findMatchingPosts } from '@/lib/reconcile/match';
import { asRecord, asString } from '../read';
import { ProviderReadError, type RawOutcome, type ReadBack, type ReadBackInput } from '../types';
import { toRecentPost, type LinkedinApi } from './api';
import { classifyLinkedin, linkedinErrorMessage } from './classifier';
import { POST_URN, authorKind } from './urn';

type Checked = { urn: string; status: number; author?: string; ours?: false; platformDetail?: string };

/**
 * Reads back one ambiguous delivery by what LinkedIn left: a duplicate refusal names the existing post's
 * URN, which is read directly. Without such a URN an organization page is listed (`list`); a member's posts
 * cannot be listed with the granted permissions, so an admin checks the profile (`review`). Never `absent`:
 * nothing here proves that a post is missing.
 */
export async function linkedinReadBack(api: LinkedinApi, input: ReadBackInput): Promise<ReadBack> {
  const named = [
    ...new Set(input.evidence.map((e) => asString(e.duplicateOf)).filter((u): u is string => POST_URN.test(u ?? ''))),
  ].reverse(); // the latest refusal first
  const checked: Checked[] = [];
  for (const urn of named) {
    const raw = await api.send({
      method: 'GET',
      url: api.postPath(urn),
      headers: api.rest,
      outbound: api.outbound,
      timeoutMs: input.timeoutMs,
      signal: input.signal,
    });
    if (raw.type === 'response' && (raw.status === 404 || raw.status === 403)) {
      checked.push({ urn, status: raw.status, platformDetail: linkedinErrorMessage(raw.body) });
      continue;
    }
    if (raw.type !== 'response' || raw.status < 200 || raw.status >= 300 || raw.body === null) throw readFailure(raw);
    const element = asRecord(raw.body);
    const post = toRecentPost(api, element);
    const author = asString(element.author);
    // Ours: this account's post with our text, made within the attempts' window (not an older post of the same text).
    const window = { text: input.text, kind: 'post' as const, inReplyTo: null, windowStart: input.since };
    if (post && author === api.author && findMatchingPosts([post], { ...window, windowEnd: input.until }).length === 1)
      return { verdict: 'found', post, evidence: { duplicateOf: urn } };
    checked.push({ urn, status: raw.status, author, ours: false });
  }
  const evidence = { attempts: input.evidence, ...(named.length > 0 ? { duplicates: checked } : {}) };
  const ghost = checked.find((c) => c.status === 404);
  if (ghost)
    return {
      verdict: 'review',
      reason: `LinkedIn refused the post as a duplicate of ${ghost.urn}, which does not exist (deleted): LinkedIn goes on refusing this text for a while. Check the page and decide.`,
      evidence,
    };
  if (authorKind(api.author) === 'organization') return { verdict: 'list', evidence };
  return {
    verdict: 'review',
    reason:
      'LinkedIn member posts cannot be listed; check the profile' +
      (named.length > 0 ? ` (LinkedIn named ${named.join(', ')} as the existing post).` : '.'),
    evidence,
  };
}

function readFailure(raw: RawOutcome): ProviderReadError {
  const classification = classifyLinkedin(raw);
  return new ProviderReadError(`Could not read from LinkedIn: ${classification.reason}`, classification);
}
