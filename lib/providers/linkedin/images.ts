import { mediaNotPosted, readMedia } from '../media-step';
import { asRecord, asString } from '../read';
import type { callBudget } from '../call-budget';
import type { Classification, PublishMedia, RawOutcome } from '../types';
import type { LinkedinApi } from './api';
import { classifyLinkedin } from './classifier';

const IMAGE_URN = /^urn:li:image:[A-Za-z0-9_-]+$/;

/**
 * LinkedIn's Images API, per image: POST /rest/images?action=initializeUpload names an upload URL and the image
 * URN, then the bytes are PUT there (201). Only then is the URN used in a post. Any step short of that ends the
 * attempt before the post (lib/providers/media-step.ts); an image registered but never posted is discarded.
 */
export async function uploadImages(
  api: LinkedinApi,
  media: readonly PublishMedia[],
  budget: ReturnType<typeof callBudget>,
): Promise<{ ok: true; urns: string[] } | { ok: false; classification: Classification; raw: RawOutcome }> {
  const read = await readMedia(media);
  if (!read.ok) return read;
  const urns: string[] = [];
  for (const [i, item] of media.entries()) {
    const init = await api.send({
      method: 'POST',
      url: `${api.base}/rest/images?action=initializeUpload`,
      headers: api.rest,
      outbound: api.outbound,
      json: { initializeUploadRequest: { owner: api.author } },
      ...budget.options(),
    });
    const value = init.type === 'response' && init.status === 200 ? asRecord(asRecord(init.body).value) : {};
    const uploadUrl = asString(value.uploadUrl);
    const image = asString(value.image);
    if (!uploadUrl || !image || !IMAGE_URN.test(image) || !/^https?:\/\//.test(uploadUrl))
      return { ok: false, classification: mediaNotPosted('LinkedIn', classifyLinkedin(init)), raw: init };
    const put = await api.send({
      method: 'PUT',
      url: uploadUrl,
      // The token goes only to LinkedIn itself (or the sandbox that answered), never to a host an answer named.
      headers: sameSite(uploadUrl, api.base) ? { authorization: api.auth.authorization } : {},
      outbound: api.outbound,
      bytes: { data: read.bytes[i]!, contentType: item.mimeType },
      ...budget.options(),
    });
    if (put.type !== 'response' || put.status < 200 || put.status >= 300)
      return { ok: false, classification: mediaNotPosted('LinkedIn', classifyLinkedin(put)), raw: put };
    urns.push(image);
  }
  return { ok: true, urns };
}

function sameSite(url: string, base: string): boolean {
  const host = new URL(url).host;
  return host === new URL(base).host || host === 'www.linkedin.com' || host.endsWith('.linkedin.com');
}
