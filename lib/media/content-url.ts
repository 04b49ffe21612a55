/**
 * Where an API client reads an image's bytes: GET /api/v1/media/{id}/content with its own key (posts:read, its
 * workspace's images only). A path on this server, so a stored answer replayed later still names it.
 */
export const mediaContentUrl = (mediaId: string) => `/api/v1/media/${mediaId}/content`;
