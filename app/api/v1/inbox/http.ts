import { json } from '@/lib/api/handler';
import { keyProblem, storedResponse } from '@/lib/http/idempotent-response';
import { problem } from '@/lib/http/problem';
import { answeredOnPlatformText, type AnswerResult } from '@/lib/inbox/answer';
import type { ListInboxResult } from '@/lib/inbox/list';

// The inbox use cases' results as HTTP (problem+json for every refusal).

export function listInboxResponse(result: ListInboxResult): Response {
  if (result.kind === 'ok') return json(result.page);
  return problem({
    status: 400,
    title: 'Bad Request',
    detail: 'Invalid query parameters; nothing was read.',
    errors: result.errors,
  });
}

export function answerResponse(result: AnswerResult): Response {
  switch (result.kind) {
    case 'ok':
      return storedResponse(result);
    case 'not_found':
      return problem({ status: 404, title: 'Not Found', detail: 'No such inbox item in this workspace.' });
    case 'not_answerable':
      return problem({
        status: 422,
        title: 'Not answerable here',
        detail: result.reason,
        errors: { _: [result.reason] },
      });
    case 'invalid':
      return problem({
        status: 422,
        title: 'Unprocessable Content',
        detail: 'The answer has invalid fields; nothing was sent.',
        errors: result.errors,
      });
    case 'already_answered':
      return problem({
        status: 409,
        title: 'Already answered',
        detail: `${result.answer.actorName} answered first: “${result.answer.text}”. Nothing was sent. To send another reply anyway, send it with "after": ${result.answers}.`,
        answeredBy: result.answer.actorName,
        answer: {
          number: result.answer.number,
          text: result.answer.text,
          createdAt: result.answer.createdAt,
          status: result.answer.status,
        },
        answers: result.answers,
      });
    case 'answered_on_platform':
      return problem({
        status: 409,
        title: 'Already answered on the platform',
        detail: `${answeredOnPlatformText(result)} Nothing was sent. To send another reply anyway, send it with "after": ${result.answers}.`,
        answeredBy: 'platform',
        answer: { platformId: result.platformAnswerId, text: result.platformAnswerText, createdAt: result.answeredAt },
        answers: result.answers,
      });
    default:
      return keyProblem(result);
  }
}
