'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { insertAuditEntry } from '@/db/queries/approvals';
import { setClientReportLogo, setClientReportRecipient } from '@/db/queries/client-reports';
import { workspaceAction } from '@/lib/auth/action';
import { prepareLogo } from '@/lib/reports/logo';

/** The monthly client report's recipient; an empty field turns the monthly report off. */
export const setClientReportRecipientAction = workspaceAction(
  {
    name: 'setClientReportRecipient',
    can: 'manageWorkspace',
    schema: z.object({
      toAddress: z
        .string()
        .trim()
        .max(254, 'At most 254 characters')
        .refine((v) => v === '' || z.email().safeParse(v).success, 'Enter an email address, or leave it empty'),
    }),
  },
  async ({ toAddress }, { workspace, user }) => {
    const address = toAddress === '' ? null : toAddress.toLowerCase();
    await getDb().transaction(async (tx) => {
      await setClientReportRecipient(tx, { workspaceId: workspace.id, toAddress: address, userId: user.id });
      await insertAuditEntry(tx, {
        workspaceId: workspace.id,
        actorUserId: user.id,
        action: 'client_report.recipient_set',
        targetType: 'workspace',
        targetId: workspace.id,
        detail: { monthly: address !== null },
      });
    });
    revalidatePath('/settings');
    return {
      ok: true,
      message: address ? `The monthly report goes to ${address}.` : 'The monthly report is off.',
    };
  },
);

/** The logo on the client report (PNG, JPEG, GIF or WebP, at most 800 KB, under the server actions’ 1 MB body limit; stored as a PNG), or its removal. */
export const setClientReportLogoAction = workspaceAction(
  {
    name: 'setClientReportLogo',
    can: 'manageWorkspace',
    schema: z.object({
      remove: z.literal('1').optional(),
      logo: z.instanceof(File).optional(),
    }),
  },
  async ({ remove, logo }, { workspace, user }) => {
    if (remove) {
      await setClientReportLogo(getDb(), { workspaceId: workspace.id, logo: null, userId: user.id });
      revalidatePath('/settings');
      return { ok: true, message: 'Logo removed.' };
    }
    if (!logo || logo.size === 0) return { ok: false, status: 422, errors: { logo: ['Choose an image'] } };
    if (logo.size > 800 * 1024) return { ok: false, status: 422, errors: { logo: ['The image is over 800 KB'] } };
    const prepared = await prepareLogo(new Uint8Array(await logo.arrayBuffer()));
    if (!prepared.ok) return { ok: false, status: 422, errors: { logo: [prepared.message] } };
    await setClientReportLogo(getDb(), {
      workspaceId: workspace.id,
      logo: { bytes: prepared.bytes, type: prepared.type },
      userId: user.id,
    });
    revalidatePath('/settings');
    return { ok: true, message: 'Logo saved: it heads the client report.' };
  },
);
