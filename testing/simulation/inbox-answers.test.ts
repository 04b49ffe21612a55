import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../db/test-database';
import { installFenceAudit } from './database';
import { inboxAnswersPlan, simulateInboxAnswers, type InboxAnswersResult } from './inbox';
import { checkInvariants } from './invariants';
import { simulationRuns, timeoutFor } from './property';

// Concurrent answers to one inbox item under every interleaving (docs/inbox.md#answering): never two replies on the
// platform unless two intents were made — an intent being an answer's place: the first answer, or "another reply
// anyway" after the ones seen; two members (or two keys) answering the same place are one — one answer per place,
// and the answers' deliveries keep I1, I2, I4 and I5 like any post.

const { db } = await createTestDatabase({ max: 4 });
beforeAll(() => installFenceAudit(db));
const runs = Math.max(10, simulationRuns('slow'));
const seen = { answered: 0, refused: 0, twoIntents: 0 };

/** What the inbox adds to the invariants, as sentences (empty: none broken). */
function inboxViolations(result: InboxAnswersResult): string[] {
  const violations: string[] = [];
  const places = new Set(result.answers.map((a) => result.intents[a.intent]!.after + 1));
  if (result.replies.length > places.size)
    violations.push(
      `${result.replies.length} replies on the platform (${result.replies.map((r) => r.text).join(' | ')}) for ${places.size} place(s) asked for`,
    );
  if (new Set(result.places).size !== result.places.length)
    violations.push(`two answers hold one place: ${result.places}`);
  // Each reply on the platform is one of the answers taken, and each answer at most once.
  const texts = result.replies.map((r) => r.text);
  if (new Set(texts).size !== texts.length) violations.push(`an answer is on the platform twice: ${texts.join(' | ')}`);
  for (const a of result.answers) {
    const told = a.result;
    if (told?.kind === 'already_answered' && !result.places.includes(told.answer.number))
      violations.push(`intent ${a.intent} was told place ${told.answer.number} is taken, but no answer holds it`);
  }
  return violations;
}

describe('simulation — concurrent answers to one inbox item', () => {
  it(
    `never two replies on the platform unless two intents were made; one answer per place (${runs} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), inboxAnswersPlan, async (s, plan) => {
          const result = await simulateInboxAnswers(db, s, plan);
          const violations = [...(await checkInvariants(db, result)), ...inboxViolations(result)];
          if (violations.length > 0)
            throw new Error(`${violations.join('\n')}\n\nsteps:\n${result.sim.trace.join('\n')}`);
          seen.answered += result.answers.filter((a) => a.result?.kind === 'ok').length;
          seen.refused += result.answers.filter((a) => a.result?.kind === 'already_answered').length;
          if (result.places.length > 1) seen.twoIntents++;
        }),
        { numRuns: runs, endOnFailure: true },
      );
      console.log(
        `inbox answers: ${seen.answered} answered, ${seen.refused} refused as already answered, ${seen.twoIntents} runs with two answers (two intents)`,
      );
      // Both sides of the race happened across the runs: answers taken, and answers refused naming the winner.
      expect(seen.answered).toBeGreaterThan(0);
      expect(seen.refused).toBeGreaterThan(0);
    },
    timeoutFor(runs),
  );
});
