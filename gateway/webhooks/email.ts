import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";

import type { WebhookEvent } from "./events.js";

/** An e-mail as the outbox stores it (rendered once, sent as is on every attempt). */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * The alert a provider gets for a redemption of its capacity (SPEC.md "Events": e-mail alerts):
 * what it must act on and by when. `event` is a `redemption.initiated` (data as the redemption
 * resource).
 */
export function alertOf(event: WebhookEvent, to: string, providerName: string): EmailMessage {
  const d = event.data as {
    redemption_id: string;
    sstb_amount: number;
    user: string;
    estimated_fulfillment_time: number;
    transactionHash: string;
  };
  const deadline = new Date(d.estimated_fulfillment_time * 1000).toISOString();
  return {
    to,
    subject: `Redemption ${d.redemption_id}: ${d.sstb_amount} sSTB to fulfil by ${deadline}`,
    text: [
      `Hello ${providerName},`,
      "",
      "A user redeemed sSTB for your compute capacity. Fulfil it with the access details before the deadline.",
      "",
      `Redemption id: ${d.redemption_id}`,
      `Amount: ${d.sstb_amount} sSTB`,
      `User: ${d.user}`,
      `Deadline: ${deadline} (Unix ${d.estimated_fulfillment_time})`,
      `Transaction: ${d.transactionHash}`,
      `Event id: ${event.id}`,
    ].join("\n"),
  };
}

/** Sends stored e-mails through SMTP (nodemailer; one pooled connection, reused). */
export class Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    timeoutMs: number,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl, {
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    } as never);
  }

  /** Sends the message; the delivery id goes in a header (and as the Message-ID) so retries can be told apart from new alerts. */
  async send(message: EmailMessage, deliveryId: string): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      messageId: `<${deliveryId}@gateway>`,
      headers: { "X-SERVICE-Delivery": deliveryId },
    });
  }

  close(): void {
    this.transport.close();
  }
}
