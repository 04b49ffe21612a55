import { bitly } from './bitly';
import { shlink } from './shlink';
import type { ExternalShortener } from './types';
import { yourls } from './yourls';

/** The external shorteners, by name (Semel's own redirect is lib/links/short-link.ts). */
export const EXTERNAL_SHORTENERS: Record<ExternalShortener['name'], ExternalShortener> = { bitly, shlink, yourls };
