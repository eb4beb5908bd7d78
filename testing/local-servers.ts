import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";

import { SMTPServer } from "smtp-server";

import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from "@compute-capacity/sdk";
import { webhookHandler } from "../gateway/webhooks/receiver.js";

/** A webhook the test receiver accepted (signature checked by the receiver helper). */
export interface Received {
  deliveryId: string;
  event: string;
  payload: { id: string; fact_id: string; event: string; timestamp: number | string; data: Record<string, any> };
  raw: string;
  /** The delivery's signature headers as received (to replay it). */
  headers: Record<string, string>;
  at: number;
}

/** The headers a delivery is verified by (what a replay of it sends again). */
const SIGNED_HEADERS = [WEBHOOK_ID_HEADER, WEBHOOK_TIMESTAMP_HEADER, WEBHOOK_SIGNATURE_HEADER, SIGNATURE_HEADER];

/** Every request that reached the receiver, whatever it answered. */
export interface Hit {
  deliveryId: string;
  event: string;
  answer: number | "hang" | "accepted" | "refused";
  at: number;
}

/**
 * A real HTTP receiver on loopback, built on gateway/webhooks/receiver.ts. `mode` decides what it
 * answers: `ok` (the helper verifies the signatures and the timestamp: 200, or 401 on a mismatch or
 * a delivery older than `tolerance`), `error` (500 without looking), `hang` (never answers).
 * `secrets` are what it verifies against.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  readonly hits: Hit[] = [];
  mode: "ok" | "error" | "hang" = "ok";
  /** How long an accepted webhook takes to answer (a slow receiver). */
  delayMs = 0;
  secrets: string[] = [];
  /** Seconds a delivery's `webhook-timestamp` may be from now (the SDK's default: 300). */
  tolerance = 300;
  private server: http.Server | undefined;
  port = 0;

  async start(): Promise<this> {
    const options = { secrets: () => this.secrets, tolerance: () => this.tolerance };
    const verified = webhookHandler(options, async (webhook) => {
      if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      this.received.push({
        deliveryId: webhook.deliveryId,
        event: webhook.event,
        payload: webhook.payload as unknown as Received["payload"],
        raw: webhook.rawBody.toString("utf8"),
        headers: Object.fromEntries(SIGNED_HEADERS.map((h) => [h, String(webhook.request.headers[h] ?? "")])),
        at: Date.now(),
      });
    });
    this.server = http.createServer((request, response) => {
      const hit: Hit = {
        deliveryId: String(request.headers[DELIVERY_HEADER] ?? ""),
        event: String(request.headers[EVENT_HEADER] ?? ""),
        answer: this.mode === "hang" ? "hang" : this.mode === "error" ? 500 : "accepted",
        at: Date.now(),
      };
      this.hits.push(hit);
      if (this.mode === "hang") return;
      if (this.mode === "error") {
        request.resume();
        response.writeHead(500).end();
        return;
      }
      response.on("finish", () => (hit.answer = response.statusCode === 200 ? "accepted" : "refused"));
      verified(request, response);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Closes the port (connections too): the receiver is down until `start()` again on the same port. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Resolves once `predicate` holds over what was accepted; rejects after `timeoutMs`. */
  async waitFor(predicate: (received: Received[]) => boolean, timeoutMs = 20_000, what = "webhooks"): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!predicate(this.received)) {
      if (Date.now() > until) {
        throw new Error(`receiver: timed out waiting for ${what}; got ${this.received.map((r) => r.event).join(", ")}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  of(event: string): Received[] {
    return this.received.filter((r) => r.event === event);
  }

  /** Sends a received delivery to this receiver again, byte for byte (a replay); returns the status. */
  async replay(delivery: Received): Promise<number> {
    const response = await fetch(this.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...delivery.headers },
      body: delivery.raw,
    });
    await response.arrayBuffer();
    return response.status;
  }
}

/** A TCP proxy in front of a node: `cut()` drops every connection and refuses new ones until `restore()`. */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<this> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  restore(): Promise<this> {
    return this.start();
  }
}

/** An e-mail the local SMTP server took. */
export interface CaughtMail {
  to: string[];
  raw: string;
  subject: string;
  deliveryId: string;
}

/** A local SMTP server (smtp-server, no TLS, no auth) that keeps every message. */
export class SmtpCatcher {
  readonly mails: CaughtMail[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const header = (name: string) =>
            new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, "im").exec(raw)?.[1].replace(/\r?\n[ \t]/g, " ") ?? "";
          this.mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            subject: header("Subject"),
            deliveryId: header("X-SERVICE-Delivery"),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** Polls `check` until it returns a value other than undefined. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  what = "condition",
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
