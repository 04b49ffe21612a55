import nodemailer, { type Transporter } from 'nodemailer';
import type { EmailMessage } from './compose';

const FROM_DEFAULT = 'Semel <notifications@semel.invalid>';
const transports = new Map<string, Transporter>();

/** One transport per SMTP_URL (smtp:// or smtps://, with user:password@ when the server needs it). */
function transportFor(smtpUrl: string): Transporter {
  let transport = transports.get(smtpUrl);
  if (!transport) {
    // Well inside the sender's 60 s lease: a send still running when its lease ran out could be sent again.
    transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    transports.set(smtpUrl, transport);
  }
  return transport;
}

/** Sends one email through SMTP; throws when the server refuses it or cannot be reached (the caller retries). */
export async function sendSmtpEmail(smtpUrl: string, message: EmailMessage, from = FROM_DEFAULT): Promise<void> {
  const url = new URL(smtpUrl);
  const sender = url.searchParams.get('from') ?? from;
  await transportFor(smtpUrl).sendMail({
    from: sender,
    to: message.to,
    subject: message.subject,
    text: message.text,
    attachments: message.attachments,
  });
}
