/** How each provider is named to people. */
export const PROVIDER_LABEL = { x: 'X', mastodon: 'Mastodon', bluesky: 'Bluesky' } as const;
