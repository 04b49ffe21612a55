import { createHash } from 'node:crypto';
import { issueSandboxSession } from './session';
import { json } from '@/sandbox/behaviour/faults';
import { readBody } from '@/sandbox/http/request';
import { didPlcFrom, hashSandboxToken } from '@/sandbox/oauth/tokens';
import type { SandboxDeps } from '@/sandbox/store/types';

// com.atproto.server.createAccount as a PDS serves it for its own handle domain (packages/pds, createAccount.ts
// and handle/index.ts): so a test or a developer can sign up on the sandbox and then connect the account through
// Semel's real app-password form. The password is what createSession accepts (a PDS takes the account password
// there as well as an app password). Stricter than a PDS: a password is required (sessions need one) and must
// not be one another sandbox account uses (the sandbox finds an account by its password); no DID import, no
// invite codes, and emails are checked for shape only and not kept.

const SERVICE_DOMAIN = '.bsky.sandbox';
const MAX_HANDLE = 30; // a PDS's limit for handles on its own domain
const MAX_PASSWORD = 256; // NEW_PASSWORD_MAX_LENGTH
const HANDLE_SYNTAX = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

const xrpcError = (error: string, message: string) => json(400, { error, message });
const invalidRequest = (message: string) => xrpcError('InvalidRequest', message);

export async function createAccount(request: Request, deps: SandboxDeps): Promise<Response> {
  const body = await readBody(request);
  if (!body) return invalidRequest('Request body is not valid JSON');
  const { email, password } = body;
  if (typeof body.handle !== 'string') return invalidRequest('Input must have the property "handle"');
  if (body.did !== undefined || body.plcOp !== undefined)
    return invalidRequest('The sandbox creates new accounts only (no "did" or "plcOp")');
  if (typeof password === 'string' && password.length > MAX_PASSWORD)
    return invalidRequest(`Password too long. Maximum length is ${MAX_PASSWORD} characters.`);
  if (typeof email !== 'string' || email === '') return invalidRequest('Email is required');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    return invalidRequest('This email address is not supported, please use a different email.');
  const handle = body.handle.trim().toLowerCase();
  if (!HANDLE_SYNTAX.test(handle)) return xrpcError('InvalidHandle', 'Handle string is not a valid handle');
  if (!handle.endsWith(SERVICE_DOMAIN)) return xrpcError('UnsupportedDomain', 'Not a supported handle domain');
  const front = handle.slice(0, -SERVICE_DOMAIN.length);
  if (front.includes('.')) return xrpcError('InvalidHandle', 'Invalid characters in handle');
  if (front.length < 3) return xrpcError('InvalidHandle', 'Handle too short');
  if (handle.length > MAX_HANDLE) return xrpcError('InvalidHandle', 'Handle too long');
  if (typeof password !== 'string' || password === '')
    return invalidRequest('The sandbox needs a password: sessions are opened with it');

  if (await deps.store.getAccountByHandle('bluesky', handle)) return invalidRequest(`Handle already taken: ${handle}`);
  if (await deps.store.authenticate('bluesky', password))
    return xrpcError('InvalidPassword', 'Another sandbox account uses this password: choose another');
  const did = didFor(handle);
  const account = await deps.store.registerAccount({
    platform: 'bluesky',
    platformUserId: did,
    handle: `@${handle}`,
    token: password,
  });
  const tokenHash = await deps.store.getTokenHash(account.id);
  if (tokenHash !== hashSandboxToken(password)) return invalidRequest(`Handle already taken: ${handle}`);
  return json(200, { handle, did, ...issueSandboxSession(did, tokenHash) });
}

/** The DID follows from the handle, so two sign-ups racing for one handle meet on the (platform, DID) key. */
function didFor(handle: string): string {
  const digest = createHash('sha256').update(`semel-sandbox:${handle}`).digest();
  return didPlcFrom(digest);
}
