import { existsSync } from "node:fs";
import path from "node:path";

import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

import type { PortalConfig } from "@compute-capacity/sdk";
import { ApiError } from "../../api/errors.js";

/**
 * What the portal's pages may load: only the gateway itself. Scripts and styles are files of the
 * build (no inline script, no eval); images may be data: URIs (the wallets' EIP-6963 icons); the
 * page talks to nothing but the gateway (an injected wallet's own RPC traffic is the extension's,
 * outside the page); no frame may embed it.
 */
export const PORTAL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join("; ");

export interface PortalRouteOptions {
  /** The built portal (`portal/dist`). */
  distDir: string;
  config: () => PortalConfig;
}

const route = { schema: { hide: true }, config: { public: true, rateLimit: false } } as const;

function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header("content-security-policy", PORTAL_CSP)
    .header("x-content-type-options", "nosniff")
    .header("x-frame-options", "DENY")
    .header("referrer-policy", "no-referrer")
    .header("cross-origin-opener-policy", "same-origin");
}

/**
 * Serves the built portal at `/portal/` (issue 20): `/portal` answers 301 to `/portal/`; a file of
 * the build is served as it is (hashed `assets/` with a year-long immutable cache, the rest
 * revalidated); an extension-less path under `/portal/` gets `index.html` (the app's own routes,
 * "history fallback"); a missing file is the API's JSON 404. Every answer carries the portal's
 * Content-Security-Policy. Without a build, `/portal` says how to build it.
 */
export async function portalRoutes(app: FastifyInstance, options: PortalRouteOptions): Promise<void> {
  const root = path.resolve(options.distDir);
  const built = existsSync(path.join(root, "index.html"));
  if (built) await app.register(fastifyStatic, { root, serve: false, index: false });

  const notBuilt = () =>
    new ApiError(
      "resource_not_found",
      "the portal is not built: run `npm start` (which builds it) or `npm run portal:build`, then reload",
      { path: "/portal/" },
    );
  const notFoundFile = (request: FastifyRequest) => {
    const p = request.url.split("?")[0];
    return new ApiError("resource_not_found", `no file ${p}`, { method: request.method, path: p });
  };
  const index = (reply: FastifyReply) => {
    if (!built) throw notBuilt();
    return pageHeaders(reply).header("cache-control", "no-cache").sendFile("index.html", { cacheControl: false });
  };

  app.get("/portal/config.json", route, async (_request, reply) => {
    pageHeaders(reply).header("cache-control", "no-cache");
    return options.config();
  });
  // `ignoreTrailingSlash` routes `/portal/` here too: only the bare path is redirected
  app.get("/portal", route, async (request, reply) => {
    const p = request.url.split("?")[0];
    if (p === "/portal") return reply.redirect("/portal/", 301);
    return index(reply);
  });
  app.get("/portal/*", route, async (request, reply) => {
    const rest = (request.params as { "*": string })["*"];
    if (rest === "" || !path.posix.basename(rest).includes(".")) return index(reply);
    if (!built) throw notBuilt();
    const file = path.resolve(root, rest);
    if (!file.startsWith(root + path.sep) || !existsSync(file)) throw notFoundFile(request);
    const hashed = rest.startsWith("assets/");
    pageHeaders(reply).header(
      "cache-control",
      hashed ? "public, max-age=31536000, immutable" : "public, max-age=0, must-revalidate",
    );
    return reply.sendFile(rest, { cacheControl: false });
  });
}
