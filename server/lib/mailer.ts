import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { DevMail } from '../../src/contract/app-config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /** The development mailbox, newest first (empty when real SMTP is used). */
  mailbox(): DevMail[];
  close(): void;
}

interface MailLog {
  info(obj: object, msg: string): void;
}

const MAILBOX_SIZE = 50;

/**
 * SMTP when SMTP_URL is set; otherwise a development mailbox that logs each message (codes
 * included: a development aid, never used when SMTP is configured) and keeps the last 50.
 */
export function createMailer(options: { smtpUrl: string | null; from: string; log: MailLog }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
      },
      mailbox: () => [],
      close: () => transport.close(),
    };
  }
  const kept: DevMail[] = [];
  return {
    async send(mail) {
      const entry: DevMail = { id: randomUUID(), ...mail, sent_at: new Date().toISOString() };
      kept.unshift(entry);
      kept.length = Math.min(kept.length, MAILBOX_SIZE);
      options.log.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text } }, 'development mailbox: message kept');
    },
    mailbox: () => [...kept],
    close: () => undefined,
  };
}
