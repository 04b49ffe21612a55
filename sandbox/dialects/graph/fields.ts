/** Each requested field, with the fields asked of it when it is an expanded edge. */
export type GraphFields = Map<string, GraphFields | null>;

/**
 * A Graph `fields` parameter with field expansion (developers.facebook.com/docs/graph-api/guides/field-expansion):
 * `id,text,replies{id,from}` → id, text, and replies with its own fields. Commas inside braces belong to the edge.
 */
export function graphFields(value: string): GraphFields {
  const fields: GraphFields = new Map();
  let depth = 0;
  let start = 0;
  const take = (part: string) => {
    const open = part.indexOf('{');
    if (open === -1) {
      if (part.trim()) fields.set(part.trim(), null);
      return;
    }
    fields.set(part.slice(0, open).trim(), graphFields(part.slice(open + 1, part.lastIndexOf('}'))));
  };
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '{') depth++;
    else if (value[i] === '}') depth--;
    else if (value[i] === ',' && depth === 0) {
      take(value.slice(start, i));
      start = i + 1;
    }
  }
  take(value.slice(start));
  return fields;
}
