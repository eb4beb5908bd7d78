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
 * what it must act on and by when. `event` is a `redemption.initiated` (fulfil by the deadline) or
 * a `redemption.terminated` (reclaim the resources); data as the redemption resource.
 */
export function alertOf(event: WebhookEvent, to: string, providerName: string): EmailMessage {
  const d = event.data as {
    redemption_id: string;
    sstb_amount: number;
    user: string;
    estimated_fulfillment_time: number;
    transactionHash: string;
    access_public_key: string | null;
    lease: { lease_id: string; expires_at: number | null; terminated_at: number | null } | null;
  };
  if (event.event === "redemption.terminated") {
    const at = d.lease?.terminated_at ?? event.timestamp;
    const end = d.lease?.expires_at;
    return {
      to,
      subject: `Lease ${d.redemption_id} terminated: reclaim the resources`,
      text: [
        `Hello ${providerName},`,
        "",
        "A user terminated a lease of your compute resources. Reclaim them (revoke the access, free the machine).",
        "The lease's redemptions keep their state: they are confirmed, disputed within their window, or finalized as before.",
        "",
        `Lease (redemption) id: ${d.redemption_id}`,
        `User: ${d.user}`,
        `Terminated at: ${new Date(at * 1000).toISOString()} (Unix ${at})`,
        `Stated end: ${end === null || end === undefined ? "none" : `${new Date(end * 1000).toISOString()} (Unix ${end})`}`,
        `Transaction: ${d.transactionHash}`,
        `Event id: ${event.id}`,
      ].join("\n"),
    };
  }
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
      `User's access key: ${d.access_public_key ?? "none registered yet (wait for it: encrypt to nothing else)"}`,
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
