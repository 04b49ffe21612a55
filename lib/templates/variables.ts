// Browser-safe: the composer fills a template's variables as the CSV import does.

/** `{{name}}`: letters, digits, `_` and `-`, spaces inside the braces allowed. */
const VARIABLE = /\{\{\s*([A-Za-z][A-Za-z0-9_-]{0,39})\s*\}\}/g;

/** The variables a text uses, in order of first use, each once (names compared in lower case). */
export function templateVariables(...texts: (string | null | undefined)[]): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const m of (text ?? '').matchAll(VARIABLE)) names.add(m[1]!.toLowerCase());
  return [...names];
}

/**
 * The text with each `{{name}}` replaced by its value (looked up in lower case); `missing` lists the variables without
 * a value (blank counts as missing), which are left in place.
 */
export function fillTemplate(
  text: string,
  values: Readonly<Record<string, string>>,
): { text: string; missing: string[] } {
  const lower = Object.fromEntries(Object.entries(values).map(([k, v]) => [k.toLowerCase(), v]));
  const missing = new Set<string>();
  const filled = text.replace(VARIABLE, (whole, name: string) => {
    const value = lower[name.toLowerCase()];
    if (value === undefined || value.trim() === '') {
      missing.add(name.toLowerCase());
      return whole;
    }
    return value;
  });
  return { text: filled, missing: [...missing] };
}
