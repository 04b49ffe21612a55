import type { ClaimedNotificationSend } from '@/db/queries/notification-sends';

/** What each notification kind is called in a subject line and in Slack. */
export const KIND_LABELS: Record<string, string> = {
  needs_review: 'Needs review',
  late_copy: 'A late copy appeared',
  failed: 'Delivery failed',
  missed: 'Delivery missed',
  reconnect: 'Account needs a reconnect',
  approval_requested: 'Approval requested',
  post_approved: 'Post approved',
  changes_requested: 'Changes requested',
  inbox: 'New in the inbox',
};

const labelOf = (kind: string | null) => (kind && KIND_LABELS[kind]) || 'Notification';

/**
 * An email is plain text only (no HTML part): what strangers wrote on the platforms (comments, names) and what members
 * wrote is shown as written, never read as markup. An HTML part would need every value through an HTML escape.
 */
export type EmailMessage = {
  to: string;
  subject: string;
  text: string;
  /** Files sent with the email (the client report's PDF); the Outbox keeps their names, not their bytes. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
};

/** Where the app lives, for the link at the end of every message (relative when NEXTAUTH_URL is unset). */
const footer = (origin: string | undefined) =>
  `\n\n-- \nSemel · ${origin ?? ''}/settings/notifications to change how you are emailed.`;

const POST_EXCERPT = 200;
const postLine = (text: string | null) =>
  text ? `\nPost: ${text.length > POST_EXCERPT ? `${text.slice(0, POST_EXCERPT)}…` : text}` : '';

/** One notification's email. */
export function notificationEmail(send: ClaimedNotificationSend, origin?: string): EmailMessage {
  return {
    to: send.toAddress!,
    subject: `[${send.workspaceName}] ${labelOf(send.kind)}`,
    text: `${send.message ?? ''}\n${postLine(send.postText)}\nWorkspace: ${send.workspaceName}\nAt: ${send.notificationCreatedAt ?? ''}${footer(origin)}`,
  };
}

/** An invitation to join the workspace, with its single-use link (built by the sender, never stored). */
export function invitationEmail(send: ClaimedNotificationSend, link: string, expiresInDays: number): EmailMessage {
  const by = send.invitedByName ? `${send.invitedByName} invited you` : 'You are invited';
  return {
    to: send.toAddress!,
    subject: `[${send.workspaceName}] Join ${send.workspaceName} on Semel`,
    text: `${by} to join ${send.workspaceName} on Semel as ${send.invitationRole ?? 'a member'}.\n\nAccept the invitation: ${link}\n\nThe link works once and expires in ${expiresInDays} days. If you did not expect it, ignore this email.`,
  };
}

/** One member's daily digest: every notification of that day, oldest first. */
export function digestEmail(
  send: ClaimedNotificationSend,
  items: { kind: string; message: string; createdAt: string; postText: string | null }[],
  origin?: string,
): EmailMessage {
  const lines = items.map(
    (item) =>
      `- ${item.createdAt} · ${labelOf(item.kind)}: ${item.message}${postLine(item.postText).replace('\n', ' · ')}`,
  );
  return {
    to: send.toAddress!,
    subject: `[${send.workspaceName}] Daily digest for ${send.digestDay}: ${items.length} notification${items.length === 1 ? '' : 's'}`,
    text: `${lines.join('\n')}${footer(origin)}`,
  };
}

/**
 * Text for Slack's mrkdwn with its three control characters escaped (docs.slack.dev, "Formatting text for app
 * surfaces": & < > as &amp; &lt; &gt;), so a comment or a name cannot make a link, a mention or `<!channel>`.
 */
export const escapeSlackText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The Slack incoming-webhook payload (mrkdwn; Slack renders it as one message). Every value in it is escaped. */
export function slackPayload(send: ClaimedNotificationSend) {
  const workspace = escapeSlackText(send.workspaceName);
  if (!send.kind) return { text: `A test message from Semel for ${workspace}: Slack notifications work.` };
  return { text: `*${escapeSlackText(labelOf(send.kind))}* · ${workspace}\n${escapeSlackText(send.message ?? '')}` };
}
