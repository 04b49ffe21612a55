// Tests import server modules directly; `server-only` would otherwise throw outside React Server Components.
export {};
