import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Semel', template: '%s · Semel' },
  description: 'Social scheduling where every post takes effect once.',
  // Files in public/ (served without a session: proxy.ts skips .ico/.png/.svg); the manifest is app/manifest.ts.
  icons: {
    icon: [
      { url: '/favicon.ico', sizes: '32x32' },
      { url: '/icon.svg', type: 'image/svg+xml' },
    ],
    apple: { url: '/apple-icon.png', sizes: '180x180' },
  },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request, so Next can put this request's CSP nonce on its scripts (proxy.ts).
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
