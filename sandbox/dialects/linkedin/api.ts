import { withListingFaults, withWriteFaults, json } from '@/sandbox/behaviour/faults';
import { actsAs, administeredOrganization } from './identity';
import { readLittleText, writeLittleText } from './little';
import { linkedinPostJson, shareId, shareUrn } from './posts';
import { accessDenied, duplicatePost, error, invalidToken, notFound, unprocessable } from './errors';
import { getOrganization, organizationAcls, userinfo } from './members';
import { networkSizes, shareStatistics } from './statistics';
import { sniffImageType } from '@/lib/media/sniff';
import { MAX_SANDBOX_IMAGE_BYTES, postMediaOf, resolveMedia, sha256Of } from '@/sandbox/http/media';
import { writeWithProfile } from '@/sandbox/behaviour/profiles';
import { bearerToken, characterCount, readBody } from '@/sandbox/http/request';
import type { SandboxAccount, SandboxDeps, SandboxPost } from '@/sandbox/store/types';

// LinkedIn as the sandbox serves it: OpenID userinfo (/v2) and the versioned Posts, organizationAcls and
// organizations endpoints (/rest), with LinkedIn's request and response shapes.

const MAX_COMMENTARY = 3_000;
const FIRST_VERSION = 202206; // LinkedIn's first versioned release

/** `root`: this sandbox's LinkedIn on the origin the caller used (upload URLs it hands out point there). */
export async function handleLinkedin(
  request: Request,
  path: string,
  deps: SandboxDeps,
  root: string,
): Promise<Response> {
  const method = request.method;
  const token = bearerToken(request);
  const member = token ? await deps.store.authenticate('linkedin', token) : null;
  const post = /^\/rest\/posts\/([^/]+)$/.exec(path);

  if (path === '/v2/userinfo' && method === 'GET') return member ? json(200, userinfo(member)) : invalidToken();
  // "View post" links from the app: a signed-in member of the workspace, no token and no version header.
  if (post && method === 'GET' && !token && deps.viewerScope) return viewPost(request, decode(post[1]!), deps);
  const upload = /^\/upload\/(\d{1,19})$/.exec(path);
  if (upload && method === 'PUT') return member ? putImage(request, member, upload[1]!, deps) : invalidToken();
  if (!path.startsWith('/rest/')) return error(404, `Resource ${path} does not exist`);
  if (!member) return invalidToken();
  const version = checkVersion(request);
  if (version instanceof Response) return version;

  if (path === '/rest/posts' && method === 'POST') return createPost(request, member, deps);
  if (
    path === '/rest/images' &&
    method === 'POST' &&
    new URL(request.url).searchParams.get('action') === 'initializeUpload'
  )
    return initializeUpload(request, member, deps, root);
  if (path === '/rest/posts' && method === 'GET') return findPostsByAuthor(request, member, version, deps);
  if (post && method === 'GET') return getPost(member, decode(post[1]!), version, deps);
  if (post && method === 'DELETE') return deletePost(member, decode(post[1]!), deps);
  if (path === '/rest/organizationAcls' && method === 'GET') return organizationAcls(request, member, deps);
  const organization = /^\/rest\/organizations\/(\d+)$/.exec(path);
  if (organization && method === 'GET') return getOrganization(member, organization[1]!, deps);
  if (path === '/rest/organizationalEntityShareStatistics' && method === 'GET')
    return shareStatistics(request, member, deps);
  const networkSize = /^\/rest\/networkSizes\/([^/]+)$/.exec(path);
  if (networkSize && method === 'GET') return networkSizes(request, member, decode(networkSize[1]!), deps);
  return error(404, `Resource ${path.slice('/rest/'.length).split('/')[0]} does not exist`);
}

/** Every /rest call names a LinkedIn-Version (YYYYMM); an unknown or future one is "not active". */
function checkVersion(request: Request): string | Response {
  const version = request.headers.get('linkedin-version');
  if (!version)
    return error(
      400,
      'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
      'VERSION_MISSING',
    );
  const match = /^(\d{4})(\d{2})(?:\.\d{2})?$/.exec(version);
  const now = new Date();
  const latest = now.getUTCFullYear() * 100 + now.getUTCMonth() + 1;
  const asked = match ? Number(match[1]) * 100 + Number(match[2]) : 0;
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 12 || asked < FIRST_VERSION || asked > latest)
    return error(426, `Requested version ${version} is not active`, 'NONEXISTENT_VERSION');
  return version;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

async function createPost(request: Request, member: SandboxAccount, deps: SandboxDeps) {
  const body = await readBody(request);
  if (!body) return error(400, 'Request body could not be converted to data map', 'ILLEGAL_ARGUMENT');
  const required = ['author', 'commentary', 'visibility', 'distribution', 'lifecycleState'];
  const missing = required.filter((field) => body[field] === undefined);
  if (missing.length > 0)
    return unprocessable(missing.map((f) => `/${f} :: field is required but not found and has no default value`));
  const { author, commentary, visibility, distribution, lifecycleState } = body;
  const problems = [
    typeof author === 'string' && /^urn:li:(person|organization):\S+$/.test(author)
      ? null
      : `/author :: ${JSON.stringify(author)} is not a valid person or organization URN`,
    typeof commentary === 'string' ? null : '/commentary :: not a string',
    ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'].includes(visibility as string)
      ? null
      : `/visibility :: ${JSON.stringify(visibility)} is not an enum symbol`,
    ['MAIN_FEED', 'NONE'].includes((distribution as { feedDistribution?: unknown } | null)?.feedDistribution as string)
      ? null
      : '/distribution/feedDistribution :: field is required but not found and has no default value',
    // The sandbox publishes; LinkedIn would also keep a DRAFT.
    lifecycleState === 'PUBLISHED' ? null : `/lifecycleState :: the sandbox takes PUBLISHED only`,
  ].filter((p): p is string => p !== null);
  if (problems.length > 0) return unprocessable(problems);
  const account = actsAs(member.platformUserId, author as string)
    ? await deps.store.getAccount('linkedin', author as string)
    : null;
  if (!account)
    return accessDenied(
      'Unpermitted fields present in REQUEST_BODY: Data Processing Exception while processing fields [/author]',
    );
  const text = readLittleText(commentary as string);
  if (characterCount(text) > MAX_COMMENTARY)
    return unprocessable([`/commentary :: length of ${characterCount(text)} exceeds the maximum ${MAX_COMMENTARY}`]);
  const images = contentImages(body.content);
  if (!images) return unprocessable(['/content :: the sandbox takes `media` (one image) or `multiImage` (2–20)']);
  const resolved = await resolveMedia(
    deps,
    account,
    images.map((i) => i.id.replace(/^urn:li:image:/, '')),
  );
  if (!resolved.ok)
    return unprocessable([`/content :: urn:li:image:${resolved.id} is not an uploaded image of the author`]);
  const media = resolved.media.map((m, i) => ({ ...postMediaOf(m), altText: images[i]!.altText }));
  return withWriteFaults(deps, request, { platform: 'linkedin', accountId: account.id }, async (context) => {
    const result = await writeWithProfile(deps.store, { account, kind: 'post', text, media }, context);
    if (result.status === 'created' || result.status === 'replayed') {
      const urn = shareUrn(result.post.id);
      return new Response(null, { status: 201, headers: { 'x-restli-id': urn, 'x-linkedin-id': urn } });
    }
    if (result.status === 'duplicate') return duplicatePost(result.duplicateOf);
    return error(500, 'Internal Server Error');
  });
}

/** The images a post's `content` names (`media` or `multiImage`); [] without content, null for another content. */
function contentImages(content: unknown): { id: string; altText: string }[] | null {
  if (content === undefined) return [];
  const c = content as { media?: { id?: unknown; altText?: unknown }; multiImage?: { images?: unknown } } | null;
  const image = (v: { id?: unknown; altText?: unknown } | undefined) =>
    typeof v?.id === 'string' && v.id.startsWith('urn:li:image:')
      ? { id: v.id, altText: typeof v.altText === 'string' ? v.altText : '' }
      : null;
  if (c?.media) {
    const one = image(c.media);
    return one ? [one] : null;
  }
  const many = Array.isArray(c?.multiImage?.images) ? (c.multiImage.images as { id?: unknown }[]).map(image) : null;
  return many && many.length >= 2 && many.length <= 20 && many.every((m) => m !== null) ? many : null;
}

/**
 * POST /rest/images?action=initializeUpload `{ initializeUploadRequest: { owner } }`: registers an image and
 * names where its bytes go (`uploadUrl`, a PUT) and its URN. Not public until a post names it.
 */
async function initializeUpload(request: Request, member: SandboxAccount, deps: SandboxDeps, root: string) {
  const body = await readBody(request);
  const owner = (body?.initializeUploadRequest as { owner?: unknown } | undefined)?.owner;
  if (typeof owner !== 'string') return unprocessable(['/initializeUploadRequest/owner :: field is required']);
  const account = actsAs(member.platformUserId, owner) ? await deps.store.getAccount('linkedin', owner) : null;
  if (!account) return accessDenied('Not enough permissions to upload images for this owner');
  return withWriteFaults(deps, request, { platform: 'linkedin', accountId: account.id }, async () => {
    const media = await deps.store.createMedia({
      accountId: account.id,
      type: 'application/octet-stream',
      altText: '',
      sha256: '',
      size: 0,
      readyAt: new Date(),
      uploaded: false,
    });
    return json(200, {
      value: {
        uploadUrlExpiresAt: Date.now() + 24 * 3_600_000,
        uploadUrl: `${root}/upload/${media.id}`,
        image: `urn:li:image:${media.id}`,
      },
    });
  });
}

/** PUT {uploadUrl}: the image's bytes (201); an image of someone else's is refused. */
async function putImage(request: Request, member: SandboxAccount, id: string, deps: SandboxDeps) {
  const media = await deps.store.getMedia(id);
  const owner = media ? await deps.store.getAccountById(media.accountId) : null;
  if (!media || !owner || !actsAs(member.platformUserId, owner.platformUserId)) return error(404, 'Upload not found');
  const bytes = new Uint8Array(await request.arrayBuffer());
  const type = sniffImageType(bytes);
  // The Images API takes JPG, GIF and PNG.
  if (!type || type === 'image/webp' || bytes.length > MAX_SANDBOX_IMAGE_BYTES)
    return error(400, 'The upload is not a supported image');
  await deps.store.updateMedia(id, { type, sha256: sha256Of(bytes), size: bytes.length, uploaded: true });
  return new Response(null, { status: 201 });
}

/** The author of a sandbox post, when it is a LinkedIn post at all (the table holds every network's). */
async function linkedinAuthor(post: SandboxPost | null, deps: SandboxDeps): Promise<SandboxAccount | null> {
  if (!post || post.kind !== 'post') return null;
  const author = await deps.store.getAccountById(post.accountId);
  return author?.platform === 'linkedin' ? author : null;
}

/**
 * GET /rest/posts/{urn}: a deleted post answers 404 (a duplicate refusal may still name it). An organization's
 * post is read by its administrators (r_organization_social); a member's posts need r_member_social, which
 * LinkedIn grants to few apps and this app does not ask for, so they answer 403.
 */
async function getPost(member: SandboxAccount, urn: string, version: string, deps: SandboxDeps) {
  const id = shareId(urn);
  if (!id) return error(400, `Invalid URN: ${urn}`, 'INVALID_URN');
  const post = await deps.store.getPost(id);
  const author = await linkedinAuthor(post, deps);
  if (!post || !author) return notFound();
  // The author's latency and 503 apply to this read too; read lag does not (LinkedIn serves a URN at once).
  const read = await withListingFaults(deps, { platform: 'linkedin', accountId: author.id });
  if (read instanceof Response) return read;
  if (
    !author.platformUserId.startsWith('urn:li:organization:') ||
    !actsAs(member.platformUserId, author.platformUserId)
  )
    return accessDenied(`Not enough permissions to access: partnerApiPostsExternal.GET.${version}`);
  return json(200, linkedinPostJson(post, author.platformUserId, writeLittleText));
}

async function viewPost(request: Request, urn: string, deps: SandboxDeps) {
  const scope = await deps.viewerScope!(request);
  if (!scope) return invalidToken();
  const id = shareId(urn);
  const post = id ? await deps.store.getPost(id) : null;
  const author = await linkedinAuthor(post, deps);
  if (!post || !author || !scope.some((s) => s.account.id === author.id)) return notFound();
  return json(200, linkedinPostJson(post, author.platformUserId, writeLittleText));
}

/**
 * GET /rest/posts?q=author&author={urn}&count&start&sortBy: newest first (sandbox posts are never edited, so
 * LAST_MODIFIED and CREATED agree). Only an administered organization; a member's posts need r_member_social.
 */
async function findPostsByAuthor(request: Request, member: SandboxAccount, version: string, deps: SandboxDeps) {
  const query = new URL(request.url).searchParams;
  if (query.get('q') !== 'author')
    return error(400, 'Invalid query parameters passed to request', 'QUERY_PARAM_NOT_ALLOWED');
  const authorUrn = query.get('author') ?? '';
  const count = query.has('count') ? Number(query.get('count')) : 10;
  const start = query.has('start') ? Number(query.get('start')) : 0;
  const sortBy = query.get('sortBy') ?? 'LAST_MODIFIED';
  if (!Number.isInteger(count) || count < 1 || count > 100 || !Number.isInteger(start) || start < 0)
    return error(400, 'count must be 1 to 100 and start at least 0', 'ILLEGAL_ARGUMENT');
  if (!['LAST_MODIFIED', 'CREATED'].includes(sortBy))
    return error(400, `Invalid value for param sortBy: ${sortBy}`, 'ILLEGAL_ARGUMENT');
  if (!/^urn:li:organization:\d+$/.test(authorUrn) || !actsAs(member.platformUserId, authorUrn))
    return accessDenied(`Not enough permissions to access: partnerApiPostsExternal.FINDER-author.${version}`);
  const account = await deps.store.getAccount('linkedin', authorUrn);
  if (!account) return json(200, { paging: { start, count, links: [] }, elements: [] });
  const read = await withListingFaults(deps, { platform: 'linkedin', accountId: account.id });
  if (read instanceof Response) return read;
  const rows = await deps.store.listPosts(account.id, {
    kinds: ['post'],
    createdUpTo: read.createdUpTo,
    limit: start + count + 1,
  });
  const page = rows.slice(start, start + count);
  const next = new URLSearchParams(query);
  next.set('start', String(start + count));
  const links =
    rows.length > start + count ? [{ type: 'application/json', rel: 'next', href: `/rest/posts?${next}` }] : [];
  return json(200, {
    paging: { start, count, links },
    elements: page.map((p) => linkedinPostJson(p, authorUrn, writeLittleText)),
  });
}

/** DELETE /rest/posts/{urn}: 204; a post already deleted or unknown answers 404; another author's post 403. */
async function deletePost(member: SandboxAccount, urn: string, deps: SandboxDeps) {
  const id = shareId(urn);
  if (!id) return notFound();
  const organization = administeredOrganization(member.platformUserId);
  const authors = [member, organization ? await deps.store.getAccount('linkedin', organization) : null];
  for (const author of authors) {
    if (!author) continue;
    const result = await deps.store.deletePost(author.id, id);
    if (result.status === 'deleted') return new Response(null, { status: 204 });
    if (result.status === 'already_deleted') return notFound();
  }
  return (await linkedinAuthor(await deps.store.getPost(id), deps))
    ? accessDenied('Not enough permissions to delete this post')
    : notFound();
}
