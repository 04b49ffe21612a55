/** RFC 9457 problem details; every client error leaves the API in this shape. */
export type Problem = {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  errors?: Record<string, string[] | undefined>;
  [extra: string]: unknown;
};

function problemBody(problem: Problem): string {
  return JSON.stringify({ type: problem.type ?? 'about:blank', ...problem });
}

export function problem(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(problemBody(problem), {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}
