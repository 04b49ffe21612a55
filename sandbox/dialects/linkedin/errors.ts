import { json } from '@/sandbox/behaviour/faults';
import { shareUrn } from './posts';
import type { SandboxPost } from '@/sandbox/store/types';

// LinkedIn's error answers, as its API words them.

export const error = (status: number, message: string, code?: string) =>
  json(status, { status, ...(code ? { code } : {}), message });
export const invalidToken = () =>
  json(401, { status: 401, serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token' });
export const accessDenied = (message: string) =>
  json(403, { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message });
export const notFound = () => json(404, { status: 404, serviceErrorCode: 0, code: 'NOT_FOUND', message: 'Not Found' });
export const unprocessable = (errors: string[]) =>
  json(422, { status: 422, message: errors.map((e) => `ERROR :: ${e}\n`).join('') });
/** LinkedIn's duplicate refusal, naming the existing post (which may have been deleted since). */
export const duplicatePost = (existing: SandboxPost | undefined) =>
  json(422, {
    errorDetailType: 'com.linkedin.common.error.BadRequest',
    message: `com.linkedin.content.common.exception.BadRequestResponseException: Content is a duplicate of ${existing ? shareUrn(existing.id) : 'an existing post'}`,
    errorDetails: { inputErrors: [{ description: 'Duplicate post is detected', input: {}, code: 'DUPLICATE_POST' }] },
    status: 422,
  });
