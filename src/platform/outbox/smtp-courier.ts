/**
 * `--smtp smtp://host:port`: outbox e-mails are also delivered to a real SMTP server (a local mail catcher
 * such as Mailpit), through nodemailer. Delivery runs beside the request, never in it: the API answers at
 * once, and the message's `delivery` says later whether the server took the e-mail. A server that is down
 * is logged once (and once again when it answers), not per message.
 */
import type { Transporter } from 'nodemailer';
import type { Logger } from '../platform.ts';
import type { MessageCourier } from './courier.ts';
import type { Delivery, OutboxMessage } from './outbox.schemas.ts';

/** The sender of every e-mail (a reserved .test domain: nothing can ever answer it). */
export const SENDER = '"Identity Verification (idv-sandbox)" <no-reply@idv-sandbox.test>';

/** How long a silent server may keep a delivery waiting (nodemailer's defaults are minutes). */
const SMTP_TIMEOUT_MS = 10_000;

/** Checks `--smtp`: smtp:// or smtps://, a host, an optional port; throws a sentence naming the flag. */
export function parseSmtpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--smtp must be a URL such as smtp://127.0.0.1:1025, got "${text}"`);
  }
  if (!['smtp:', 'smtps:'].includes(url.protocol) || url.hostname === '') {
    throw new Error(`--smtp must be smtp://host:port or smtps://host:port (e.g. smtp://127.0.0.1:1025), got "${text}"`);
  }
  return url;
}

export class SmtpCourier implements MessageCourier {
  private readonly inFlight = new Set<Promise<void>>();
  private failing = false;

  private constructor(
    readonly server: string,
    private readonly transport: Transporter,
    private readonly log: Logger,
  ) {}

  /** nodemailer is loaded here, only with --smtp: a sandbox without it starts without the library. */
  static async open(url: URL, log: Logger): Promise<SmtpCourier> {
    const { default: nodemailer } = await import('nodemailer');
    const secure = url.protocol === 'smtps:';
    const port = url.port === '' ? (secure ? 465 : 25) : Number(url.port);
    const transport = nodemailer.createTransport({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port,
      secure,
      ...(url.username === '' ? {} : { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    });
    return new SmtpCourier(`${url.hostname}:${port}`, transport, log);
  }

  dispatch(message: OutboxMessage, settle: (delivery: Delivery) => void): void {
    const delivery = this.deliver(message).then((outcome) => {
      try {
        settle(outcome);
      } catch (error) {
        // The store refused the update (a full disk): the message keeps its pending delivery.
        this.log.warn(`outbox: the delivery of ${message.id} could not be recorded: ${(error as Error).message}`);
      }
    });
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  async close(): Promise<void> {
    await this.idle();
    this.transport.close();
  }

  private async deliver(message: OutboxMessage): Promise<Delivery> {
    try {
      const sent = await this.transport.sendMail({
        from: SENDER,
        to: message.to,
        subject: message.subject ?? '',
        text: message.text,
        headers: { 'X-Sandbox-Message-Id': message.id },
      });
      if (this.failing) this.log.info(`outbox: SMTP server ${this.server} takes e-mails again`);
      this.failing = false;
      return { status: 'delivered', server: this.server, smtpMessageId: sent.messageId };
    } catch (error) {
      const reason = (error as Error).message;
      if (!this.failing)
        this.log.warn(`outbox: e-mail ${message.id} not delivered to SMTP server ${this.server} (${reason}); later failures show on each message's delivery`);
      this.failing = true;
      return { status: 'failed', server: this.server, error: reason };
    }
  }
}
