import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import type { FastifyInstance } from "fastify";

import type { KeyService } from "../../../gateway/auth/keys.js";
import { ConfigError, loadConfig } from "../../../gateway/config.js";
import { buildApp } from "../../../gateway/http/app.js";
import type { AppOptions } from "../../../gateway/http/app.js";
import type { ReadModel } from "../../../gateway/store/queries.js";

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: { success: boolean; error?: { code: string; message: string } };
}

/** An app serving only what needs no database: `/health` (public) and the not-found route. */
async function appWith(options: Partial<AppOptions>): Promise<{ app: FastifyInstance; port: number }> {
  const app = await buildApp({
    model: {} as ReadModel,
    keys: {} as KeyService,
    chains: [],
    chainLabels: {},
    bridges: {
      quote: async () => Promise.reject(new Error("not used")),
      queue: async () => Promise.reject(new Error("not used")),
    },
    activity: { activity: async () => [] },
    health: () => ({ status: "ok" }),
    ...options,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return { app, port: (app.server.address() as { port: number }).port };
}

function get(port: number, headers: Record<string, string> = {}, tls?: { ca: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const options = {
      host: "127.0.0.1",
      port,
      path: "/health",
      headers,
      ...(tls ? { ca: tls.ca, servername: "localhost" } : {}),
    };
    const request = (tls ? httpsRequest : httpRequest)(options, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: JSON.parse(text) as Answer["body"] }),
      );
    });
    request.on("error", reject);
    request.end();
  });
}

function expectRefused(answer: Answer) {
  expect(answer.status).to.equal(403);
  expect(answer.body).to.deep.include({ success: false });
  expect(answer.body.error).to.include({ code: "authorization_error", message: "HTTPS is required" });
  expect(answer.headers).to.include.keys("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset");
}

describe("Gateway transport: HTTPS (DESIGN.md section 9)", function () {
  this.timeout(30_000);
  const apps: FastifyInstance[] = [];
  let dir: string;
  let cert: string;
  let key: string;

  before(function () {
    dir = mkdtempSync(path.join(tmpdir(), "gateway-tls-"));
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"]
        .concat(["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        .concat(["-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")]),
      { stdio: "ignore" },
    );
    cert = readFileSync(path.join(dir, "cert.pem"), "utf8");
    key = readFileSync(path.join(dir, "key.pem"), "utf8");
  });

  after(async function () {
    await Promise.all(apps.map((app) => app.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  describe("requests", function () {
    it("serves plain HTTP when HTTPS is not required (the devnet)", async function () {
      const { app, port } = await appWith({});
      apps.push(app);
      expect((await get(port)).status).to.equal(200);
    });

    it("refuses plain HTTP with authorization_error when HTTPS is required", async function () {
      const { app, port } = await appWith({ requireHttps: true });
      apps.push(app);
      expectRefused(await get(port));
      // a forwarded protocol from a proxy the gateway does not trust is ignored
      expectRefused(await get(port, { "x-forwarded-proto": "https" }));
    });

    it("serves TLS itself with a certificate and key", async function () {
      const { app, port } = await appWith({ requireHttps: true, tls: { cert, key } });
      apps.push(app);
      const answer = await get(port, {}, { ca: cert });
      expect(answer.status).to.equal(200);
      expect(answer.body.success).to.equal(true);
    });

    it("believes X-Forwarded-Proto only from a trusted TLS-terminating proxy", async function () {
      const trusted = await appWith({ requireHttps: true, trustedProxies: ["127.0.0.1"] });
      const other = await appWith({ requireHttps: true, trustedProxies: ["10.0.0.0/8"] });
      apps.push(trusted.app, other.app);
      expect((await get(trusted.port, { "x-forwarded-proto": "https" })).status).to.equal(200);
      expectRefused(await get(trusted.port)); // the proxy forwarded a plain-HTTP request
      expectRefused(await get(trusted.port, { "x-forwarded-proto": "http" }));
      expectRefused(await get(other.port, { "x-forwarded-proto": "https" })); // 127.0.0.1 is not that proxy
    });
  });

  describe("configuration", function () {
    const env = { GATEWAY_JWT_SECRET: "x".repeat(32) };

    it("requires HTTPS outside the devnet and refuses to start without TLS or a trusted proxy", function () {
      expect(() => loadConfig({ environment: "mainnet" }, env, dir)).to.throw(ConfigError, /HTTPS is required/);
      const behindProxy = loadConfig({ environment: "mainnet", "trusted-proxies": "10.0.0.2, 10.1.0.0/16" }, env, dir);
      expect(behindProxy.requireHttps).to.equal(true);
      expect(behindProxy.trustedProxies).to.deep.equal(["10.0.0.2", "10.1.0.0/16"]);
      const direct = loadConfig(
        { environment: "mainnet" },
        { ...env, GATEWAY_TLS_CERT_FILE: path.join(dir, "cert.pem"), GATEWAY_TLS_KEY_FILE: path.join(dir, "key.pem") },
        dir,
      );
      expect(direct.tls).to.deep.equal({ cert, key });
    });

    it("serves plain HTTP on the devnet unless told otherwise, and refuses a certificate without its key", function () {
      expect(loadConfig({}, {}, dir).requireHttps).to.equal(false);
      expect(() => loadConfig({ "require-https": "true" }, {}, dir)).to.throw(ConfigError, /HTTPS is required/);
      expect(() => loadConfig({ "tls-cert": path.join(dir, "cert.pem") }, {}, dir)).to.throw(
        ConfigError,
        /go together/,
      );
    });
  });
});
