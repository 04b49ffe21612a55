/** Sums the samples of `name` whose labels include `labels`, from a Prometheus text exposition. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  let found = false;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => given[k] === v)) {
      total += Number(match[3]);
      found = true;
    }
  }
  if (!found) throw new Error(`no sample ${name}${JSON.stringify(labels)} in the scrape`);
  return total;
}

/** Like `sample`, but 0 when the series does not exist yet (a counter never incremented). */
export function sampleOrZero(text: string, name: string, labels: Record<string, string> = {}): number {
  try {
    return sample(text, name, labels);
  } catch {
    return 0;
  }
}
