/**
 * The operationId of every documented operation: stable, readable names, since code generators in
 * other languages name their methods from them (`listComputeUnits` -> `list_compute_units`). Keyed
 * by method and path without the prefix. Every route is registered under both prefixes: under
 * `/api/v1` (the reference set) an operation has the name below, under `/v1` (the short set) the
 * same name with the suffix `Short`. A documented route missing here fails the gateway's start (and
 * so every test and `npm run lint:openapi`): name it here when adding it.
 */
export const OPERATION_IDS: Record<string, string> = {
  // compute units; the short set calls them compute resources
  "GET /cu/list": "listComputeUnits",
  "GET /cu/:cu_id": "getComputeUnit",
  "GET /compute-resources": "listComputeResources",
  "GET /compute-resources/:resourceId": "getComputeResource",
  "GET /compute-resources/provider/:providerId": "listComputeResourcesByProvider",
  // providers (`/providers` is the short set's name of `/providers/list`)
  "GET /providers/list": "listProviders",
  "GET /providers": "getProviders",
  "GET /providers/:providerId": "getProvider",
  "GET /providers/:providerId/compute-resources": "listProviderComputeResources",
  // marketplace
  "GET /marketplace/listings": "listListings",
  "GET /marketplace/listings/:listing_id": "getListing",
  "GET /marketplace/claimable": "listClaimableBalances",
  // redemptions
  "POST /redemptions": "initiateRedemption",
  "GET /redemptions/:redemptionId": "getRedemption",
  "POST /redemptions/:redemptionId/confirm": "confirmRedemption",
  "POST /redemptions/:redemptionId/dispute": "openDispute",
  "GET /redemptions/:redemptionId/dispute": "getDispute",
  "GET /redemptions/:redemptionId/specifications": "getRedemptionSpecifications",
  // the calling account's redemptions and reads behind the portal's pages
  "GET /redemptions": "listAccountRedemptions",
  "GET /redemptions/quote": "quoteRedemption",
  "GET /redemptions/:redemptionId/access-details": "getAccessDetails",
  "GET /providers/:providerId/collateral": "getProviderCollateral",
  // sSTB of the key's account
  "GET /sstb/balance": "getSstbBalance",
  "POST /sstb/transfer": "transferSstb",
  // verification
  "POST /verification/submit": "submitVerification",
  "POST /verification/cosign": "cosignVerification",
  "GET /verification/:verification_id": "getVerification",
  // bridge
  "GET /bridge/chains": "listBridgeChains",
  "GET /bridge/fees": "quoteBridgeFees",
  "GET /bridge/status/:message_id": "getBridgeTransfer",
  // webhooks
  "POST /webhooks": "createWebhook",
  "GET /webhooks": "listWebhooks",
  "GET /webhooks/:subscription_id": "getWebhook",
  "DELETE /webhooks/:subscription_id": "deleteWebhook",
  "POST /webhooks/:subscription_id/rotate": "rotateWebhookSecret",
  "POST /webhooks/:subscription_id/test": "sendTestWebhook",
  "GET /webhooks/:subscription_id/deliveries": "listWebhookDeliveries",
  "POST /webhooks/:subscription_id/deliveries/:delivery_id/redeliver": "redeliverWebhookDelivery",
  // portal sessions (Sign-In with Ethereum) and the session's own API keys
  "POST /session/nonce": "createSignInNonce",
  "POST /session": "signIn",
  "GET /session": "getSession",
  "DELETE /session": "signOut",
  "GET /session/keys": "listSessionKeys",
  "POST /session/keys": "createSessionKey",
  "DELETE /session/keys/:key_id": "revokeSessionKey",
  "GET /session/access-key": "getSessionAccessKey",
  "PUT /session/access-key": "setSessionAccessKey",
  // the calling key and the deployment
  "GET /me": "getMe",
  "GET /deployment": "getDeployment",
};

/** GraphQL's two forms (no prefix). */
const GRAPHQL_OPERATION_IDS: Record<string, string> = {
  "GET /graphql": "queryGraphqlWithGet",
  "POST /graphql": "queryGraphql",
};

/** The operationId of a documented route; throws for a route that has none (see {@link OPERATION_IDS}). */
export function operationIdOf(method: string, url: string): string {
  const key = `${method.toUpperCase()} ${url}`;
  if (Object.hasOwn(GRAPHQL_OPERATION_IDS, key)) return GRAPHQL_OPERATION_IDS[key];
  const prefix = url.startsWith("/api/v1/") ? "/api/v1" : url.startsWith("/v1/") ? "/v1" : undefined;
  const name = prefix === undefined ? undefined : OPERATION_IDS[`${method.toUpperCase()} ${url.slice(prefix.length)}`];
  if (name === undefined) {
    throw new Error(`no operationId for ${key}: name the operation in gateway/http/operations.ts`);
  }
  return prefix === "/v1" ? `${name}Short` : name;
}
