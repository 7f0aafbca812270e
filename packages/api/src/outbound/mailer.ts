// Sending mail: nodemailer over SMTP_URL. One transport per process. Every
// step has a short time limit (nodemailer's defaults let a silent relay hold
// a send for minutes): the mail lane of the outbound worker moves on.
// nodemailer (about 5 MB of heap per process) is loaded with the first mail:
// most serving processes send none (issue 25, memory).
import type { Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable id of the message (its outbox id): a receiver can tell a resend. */
  messageId: string;
  unsubscribeUrl: string | null;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  let transport: Promise<Transporter> | null = null;
  const open = (): Promise<Transporter> =>
    (transport ??= import('nodemailer').then((m) =>
      m.default.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }),
    ));
  return {
    async send(mail) {
      await (await open()).sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        headers: mail.unsubscribeUrl ? { 'List-Unsubscribe': `<${mail.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {},
      });
    },
    close: () => void transport?.then((t) => t.close()),
  };
}
