import type { MetadataRoute } from 'next';

/** The web app manifest (/manifest.webmanifest): the app icons in public/, for "install" and home screens. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: 'Semel',
    short_name: 'Semel',
    description: 'Social scheduling where every post takes effect once.',
    start_url: '/queue',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#4f46e5',
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
    ],
  };
}
