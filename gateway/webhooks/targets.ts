import { lookup } from "node:dns";
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from "node:dns";
import { BlockList, isIP } from "node:net";

/** Where webhooks may go (DESIGN.md section 9, "webhook targets"). */
export interface TargetPolicy {
  /** Loopback receivers (devnet only). */
  allowLoopback: boolean;
  /** Only `https` URLs (everywhere but the devnet). */
  requireHttps: boolean;
}

/** A URL or an address the policy refuses; the message says why. */
export class TargetError extends Error {}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** Private, link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254), shared, reserved, multicast. */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT (also Alibaba's metadata address 100.100.100.200)
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  INTERNAL.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["fc00::", 7], // unique local (AWS metadata fd00:ec2::254)
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
  ["2001:db8::", 32],
  ["100::", 64],
  // transition ranges that carry an IPv4 address a host may route to (no receiver lives there):
  ["::", 96], // IPv4-compatible (::a.b.c.d, deprecated)
  ["2002::", 16], // 6to4
  ["2001::", 32], // Teredo
  ["64:ff9b:1::", 48], // local-use NAT64
] as const) {
  INTERNAL.addSubnet(network, prefix, "ipv6");
}

/** The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`) or NAT64 (`64:ff9b::a.b.c.d`) IPv6 address. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (match === null) return undefined;
  if (match[1] !== undefined) return match[1];
  const high = parseInt(match[2], 16);
  const low = parseInt(match[3], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Why the policy refuses to send to `address`, or undefined when it may. */
export function refusalOf(address: string, policy: TargetPolicy): string | undefined {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  const [ip, type] = v4 === undefined ? [address, "ipv6" as const] : [v4, "ipv4" as const];
  if (LOOPBACK.check(ip, type)) return policy.allowLoopback ? undefined : `${address} is a loopback address`;
  if (INTERNAL.check(ip, type)) return `${address} is a private, link-local, metadata or reserved address`;
  return undefined;
}

/** Parses and checks a receiver URL's form: http(s), no credentials, a host; `https` when required. */
export function parseTargetUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetError("is not a URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TargetError("must be an http(s) URL");
  if (policy.requireHttps && url.protocol !== "https:") throw new TargetError("must be an https URL");
  if (url.username !== "" || url.password !== "") throw new TargetError("must not carry credentials");
  if (url.hostname === "") throw new TargetError("has no host");
  return url;
}

/** A URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** Resolves `host` and refuses it if any of its addresses is refused (a name must not point inside). */
export async function checkHost(host: string, policy: TargetPolicy): Promise<void> {
  const addresses = await resolveAll(host);
  for (const a of addresses) {
    const reason = refusalOf(a.address, policy);
    if (reason !== undefined) throw new TargetError(`resolves to a refused address (${reason})`);
  }
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  if (isIP(host) !== 0) return Promise.resolve([{ address: host, family: isIP(host) }]);
  return new Promise((resolve, reject) =>
    lookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(new TargetError(`does not resolve (${error.code ?? error.message})`)) : resolve(addresses),
    ),
  );
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that checks every address it resolves at connection time: the
 * address checked is the address connected to, so a name that resolved outside at subscription
 * and inside now (DNS rebinding) is refused at delivery.
 */
export function guardedLookup(policy: TargetPolicy) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    resolveAll(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = addresses.filter((a) => wanted === undefined || a.family === wanted);
        for (const a of usable) {
          const reason = refusalOf(a.address, policy);
          if (reason !== undefined) {
            callback(Object.assign(new TargetError(`refused target: ${reason}`), { code: "EREFUSEDTARGET" }), "");
            return;
          }
        }
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no usable address`), { code: "ENOTFOUND" }), "");
          return;
        }
        if ((options as LookupAllOptions).all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (error: Error) => callback(Object.assign(error, { code: "ENOTFOUND" }), ""),
    );
  };
}
