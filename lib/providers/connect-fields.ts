import { z } from 'zod';
import { baseUrlRefusal } from '@/lib/net/outbound-guard';

/** Connect-form fields every network's schema is built from (field errors, never a 500). */
export const httpUrl = (label: string) =>
  z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/, error: `${label} must be a URL like https://example.com` }))
    .superRefine((value, ctx) => {
      const refusal = baseUrlRefusal(value);
      if (refusal) ctx.addIssue({ code: 'custom', message: `${label} ${refusal}` });
    })
    .transform((value) => value.replace(/\/+$/, ''));

export const accessToken = z.string().trim().min(8, 'Paste the whole access token').max(2000);
