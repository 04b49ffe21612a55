import { asRecord, asString, checkIdentity, readJson } from '../read';
import {
  ProviderReadError,
  type DeleteResult,
  type ListRecentInput,
  type ReadBack,
  type ReadBackInput,
  type RecentPost,
  type WhoAmIResult,
} from '../types';
import { POST_COLLECTION, atUri, parsePostRef } from './at-uri';
import { BLUESKY_RULES, classifyBluesky, xrpcError } from './classifier';
import { strongRef, toRecentPost, type CallOptions, type Repo } from './repo';
import { decodeTid, recordKeyFor } from './tid';

const PAGE_SIZE = 100;
const HOUR_US = 3_600_000_000n;

/** One getRecord by the delivery's key: the PDS holds the record or it does not (400 RecordNotFound). */
export async function readBackRecord(repo: Repo, input: ReadBackInput): Promise<ReadBack> {
  if (!input.createdAt)
    return { verdict: 'review', reason: 'The first attempt’s time is unknown, so is the record key.' };
  const rkey = recordKeyFor(input.idempotencyKey, input.createdAt);
  const evidence = { uri: atUri({ repo: repo.did, collection: POST_COLLECTION, rkey }), rkey };
  // Every attempt reported the key it wrote under: one that differs means the derivation moved under us.
  const otherKey = input.evidence.map((e) => e.rkey).find((k) => typeof k === 'string' && k !== rkey);
  if (otherKey)
    return { verdict: 'review', reason: `An attempt wrote under another record key (${String(otherKey)}).`, evidence };
  const raw = await repo.getRecord(
    { repo: repo.did, collection: POST_COLLECTION, rkey },
    { timeoutMs: input.timeoutMs, signal: input.signal },
  );
  if (raw.type === 'response' && raw.status === 400 && xrpcError(raw.body).error === 'RecordNotFound') {
    // The PDS once said a record held this key (InvalidSwap): gone now means deleted since, not never made.
    if (input.evidence.some((e) => e.recordExists === true))
      return { verdict: 'review', reason: 'The post existed under its record key and is gone now: deleted?', evidence };
    return { verdict: 'absent', evidence };
  }
  const body = raw.type === 'response' && raw.status === 200 ? asRecord(raw.body) : null;
  if (!body || !strongRef(body)) {
    const classification = classifyBluesky(raw);
    throw new ProviderReadError(`Could not read the record: ${classification.reason}`, classification);
  }
  const post = toRecentPost(repo, body);
  // 41.7 bits of hash per hour make a key shared by two deliveries unlikely; if it happens, a person decides.
  if (post.text !== input.text)
    return {
      verdict: 'review',
      reason: 'A post with other text holds this delivery’s record key.',
      evidence: { ...evidence, text: post.text },
    };
  return { verdict: 'found', post, evidence: { ...evidence, cid: String(body.cid), pds: repo.base } };
}

/** listRecords, newest key first (the PDS orders by record key: TIDs, by time; Semel's to within the hour). */
export async function listRecentRecords(repo: Repo, input: ListRecentInput): Promise<RecentPost[]> {
  const posts: RecentPost[] = [];
  // Our keys run up to an hour ahead of their createdAt (tid.ts): older keys hold no post of the window.
  const oldestKeyUs = BigInt(input.since.getTime()) * 1000n - HOUR_US;
  let cursor: string | undefined;
  for (let page = 0; page < (input.maxPages ?? 10); page++) {
    const params: Record<string, string> = { repo: repo.did, collection: POST_COLLECTION, limit: String(PAGE_SIZE) };
    if (cursor) params.cursor = cursor;
    const { body } = await readJson(
      {
        url: repo.xrpc('com.atproto.repo.listRecords', params),
        headers: repo.auth,
        outbound: repo.outbound,
        timeoutMs: input.timeoutMs,
        signal: input.signal,
      },
      BLUESKY_RULES,
      repo.send,
    );
    const list = asRecord(body).records;
    const records = Array.isArray(list) ? list.map(asRecord) : [];
    for (const record of records) {
      if (!strongRef(record)) continue;
      const post = toRecentPost(repo, record);
      if (post.createdAt >= input.since && (!input.until || post.createdAt <= input.until)) posts.push(post);
    }
    cursor = asString(asRecord(body).cursor);
    const lastKey = decodeTid(cursor ?? '');
    if (records.length < PAGE_SIZE || !cursor || (lastKey && lastKey.timestampUs < oldestKeyUs)) break;
  }
  return posts.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/** getSession: the session's DID and handle. */
export function whoAmISession(repo: Repo, options: CallOptions): Promise<WhoAmIResult> {
  return checkIdentity(async () => {
    const { body } = await readJson(
      { url: repo.xrpc('com.atproto.server.getSession'), headers: repo.auth, outbound: repo.outbound, ...options },
      BLUESKY_RULES,
      repo.send,
    );
    const session = asRecord(body);
    const id = asString(session.did);
    if (!id?.startsWith('did:'))
      throw new ProviderReadError('Not a Bluesky session', {
        outcome: 'failed',
        rule: 'not-an-account',
        reason: 'The answer is not an AT Protocol session (no DID).',
      });
    return { id, handle: `@${asString(session.handle) ?? id}`, displayName: null };
  });
}

/** deleteRecord by the post's URI; a record already gone is a no-op the PDS answers 200 without a commit. */
export async function deleteRecord(repo: Repo, id: string, options: CallOptions): Promise<DeleteResult> {
  const ref = parsePostRef(id);
  if (!ref || ref.repo !== repo.did || ref.collection !== POST_COLLECTION)
    return { ok: false, reason: 'Not a post of this account (expected its at:// URI).' };
  const raw = await repo.send({
    method: 'POST',
    url: repo.xrpc('com.atproto.repo.deleteRecord'),
    headers: repo.auth,
    outbound: repo.outbound,
    json: { repo: repo.did, collection: POST_COLLECTION, rkey: ref.rkey },
    ...options,
  });
  if (raw.type !== 'response') return { ok: false, reason: `The PDS did not answer the delete: ${raw.message}` };
  if (raw.status === 200) return { ok: true, alreadyGone: asRecord(raw.body).commit === undefined };
  return { ok: false, reason: `The PDS refused the delete (${raw.status}).`, httpStatus: raw.status };
}
