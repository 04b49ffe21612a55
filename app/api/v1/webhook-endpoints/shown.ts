/** An endpoint as the API shows it: never its secret. */
export const shownEndpoint = (e: { id: string; url: string; events: string[]; enabled: boolean; createdAt: Date }) => ({
  id: e.id,
  url: e.url,
  events: e.events,
  enabled: e.enabled,
  createdAt: e.createdAt.toISOString(),
});
