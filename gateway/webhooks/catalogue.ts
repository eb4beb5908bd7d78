/**
 * The event catalogue: one named schema per webhook event (the body a receiver gets: `id`,
 * `fact_id`, `event`, `timestamp`, `data`), the OpenAPI 3.1 `webhooks` section that lists them with
 * the headers every delivery carries, and `WebhookEvent`, their union discriminated by `event`. The
 * mappers (events.ts) build exactly these bodies: the catalogue test delivers every event to a
 * receiver that validates each body against its schema.
 */
import { FEE_OPTION_NAMES, POSITION_KINDS, TRADE_TYPES } from "@compute-capacity/sdk";
import { component, exampleOf } from "../http/components.js";
import type { Ref } from "../http/components.js";
import * as s from "../http/schemas.js";
import { ISSUE_TYPES } from "../indexer/modules/redemption-manager.js";
import { DELIVERY_EVENTS, TEST_EVENT, TWIN_EVENTS } from "./event-names.js";
import type { DeliveryEventName } from "./event-names.js";

type Schema = Record<string, unknown>;

const EXAMPLE_SUBSCRIPTION = "5d1e7f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a";

const transactionHash = {
  ...s.txHash,
  description: "the transaction of the log that announced it",
};
const redemptionData = (extra: Schema, description: string) =>
  s.object({ ...s.redemptionSchema.properties, ...extra, transactionHash }, description);
const leaseNoticeData = (description: string) =>
  s.object(
    {
      ...s.redemptionSchema.properties,
      seconds_left: {
        type: "integer",
        minimum: 0,
        description: "seconds from the notice to the lease's end (0 once ended)",
        examples: [3600],
      },
    },
    description,
  );
const positionData = (description: string) =>
  s.object(
    {
      ...s.listingItemSchema.properties,
      kind: { type: "string", enum: POSITION_KINDS.filter((k) => k !== "none"), description: "the position's kind" },
      transactionHash,
    },
    description,
  );
const compensation = s.usdcAmount("compensation", "collateral paid to the user (the collateral token)", "15");
const claimableData = (extra: Schema, description: string) =>
  s.object(
    {
      account: { ...s.address, description: "whose claimable balance it is" },
      market: { ...s.address, description: "the market contract holding it", examples: [s.EXAMPLE.contract] },
      market_type: { type: "string", enum: ["spot", "futures", "options"], description: "the market" },
      token: { ...s.address, description: "the token", examples: [s.EXAMPLE.contract] },
      token_symbol: { type: "string", description: "its symbol", examples: ["USDC"] },
      token_decimals: { type: "integer", description: "its decimals", examples: [6] },
      ...extra,
      ...claimableAmount("claimable", "the account's claimable balance of the token in this market after it", "24"),
      transactionHash,
    },
    description,
  );
function claimableAmount(name: string, what: string, whole: string) {
  return {
    [name]: {
      type: "number",
      description: `${what}: whole tokens (\`${name}_base_units\` is exact)`,
      examples: [Number(whole)],
    },
    [`${name}_base_units`]: s.baseUnitsString(`${what}: exact, in the token's base units`, "24000000"),
  };
}
/** The named properties of a schema, in that order. */
const pick = (schema: { properties: object }, ...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, (schema.properties as Schema)[name]]));
const bridgeData = (extra: Schema, description: string) =>
  s.object(
    {
      ...pick(
        s.bridgeTransactionSchema,
        "message_id",
        "source_chain",
        "destination_chain",
        "token",
        "amount",
        "amount_base_units",
        "sender",
        "recipient",
      ),
      ...extra,
      transactionHash,
    },
    description,
  );

/** What each event means, what triggers it, and its `data`. */
export const EVENT_CATALOGUE: Record<DeliveryEventName, { summary: string; trigger: string; data: Schema }> = {
  "cu.verified": {
    summary: "A compute unit was verified",
    trigger: "CUToken `ComputeUnitVerified`",
    data: s.object(
      { ...s.computeUnitItemSchema.properties, transactionHash },
      "the unit as `GET /cu/{cu_id}` lists it",
    ),
  },
  "sstb.minted": {
    summary: "sSTB was minted for a verified unit",
    trigger: "MintingAgent `SSTBMinted`",
    data: s.object(
      {
        provider_id: { ...s.address, description: "the provider whose unit was verified" },
        ...s.sstbAmount("sstb_amount", "sSTB minted", "50"),
        owner: { ...s.address, description: "who received it: the provider" },
        ...s.sstbAmount("cu_value", "the unit's value (equal to the amount minted)", "50"),
        cu_id: { type: "integer", description: "the unit's id", examples: [1] },
        ...s.usdcAmount("collateral_amount", "collateral the provider posted with the mint", "60"),
        staking_period: { type: "integer", description: "seconds the capacity is committed", examples: [2_592_000] },
        transactionHash,
      },
      "the mint (the spec's fields provider_id, sstb_amount, owner, cu_value; the guide's transactionHash)",
    ),
  },
  "sstb.transferred": {
    summary: "sSTB was transferred (mints and burns are announced by their own events)",
    trigger: "SSTB `Transfer` between two accounts",
    data: s.object(
      {
        from: { ...s.address, description: "the sender", examples: [s.EXAMPLE.user] },
        to: { ...s.address, description: "the recipient", examples: [s.EXAMPLE.buyer] },
        ...s.sstbAmount("sstb_amount", "sSTB sent"),
        chain: { type: "string", description: "the deployment's name of the chain", examples: ["arbitrum"] },
        native_chain_id: { type: "integer", description: "the chain's EIP-155 id", examples: [42161] },
        transactionHash,
      },
      "the transfer",
    ),
  },
  "sstb.redeemed": {
    summary: "sSTB was redeemed (burned for compute; a renewal too)",
    trigger: "RedemptionManager `RedemptionInitiated`",
    data: s.object(
      {
        redemption_id: { type: "string", description: "the redemption", examples: ["7"] },
        ...s.sstbAmount("sstb_amount", "sSTB redeemed (the fee is on top)"),
        user: { ...s.address, description: "the holder", examples: [s.EXAMPLE.user] },
        provider_id: { ...s.address, description: "the provider" },
        transactionHash,
      },
      "the redemption's initiation",
    ),
  },
  "listing.created": {
    summary: "A marketplace listing was created (reference list; the same fact as marketplace.listing_created)",
    trigger: "SpotMarket, FuturesMarket or OptionsMarket `ListingCreated`",
    data: positionData("the position as `GET /marketplace/listings` lists it, and its kind"),
  },
  "listing.purchased": {
    summary: "A listing was bought (spot and options: the same fact as marketplace.trade_executed)",
    trigger: "a market's `ListingPurchased`",
    data: s.object(
      {
        listing_id: s.listingItemSchema.properties.listing_id,
        market_type: s.listingItemSchema.properties.market_type,
        seller: { ...s.address, description: "the seller (maker)" },
        buyer: { ...s.address, description: "the buyer", examples: [s.EXAMPLE.buyer] },
        ...s.sstbAmount("amount", "sSTB bought", "4"),
        ...s.sstbAmount("remaining", "sSTB still on offer", "6"),
        ...s.usdcAmount("price_per_token", "price per whole sSTB (options: the premium)"),
        transactionHash,
      },
      "the purchase",
    ),
  },
  "verification.completed": {
    summary: "A submitted verification reached its verdict (off-chain; the provider's own subscriptions only)",
    trigger: "the gateway's verifier: `POST /verification/submit` or `/cosign`",
    data: s.object(
      pick(
        s.verificationSchema,
        "verification_id",
        "provider_id",
        "verification_method",
        "status",
        "created_at",
        "verified_at",
        "cu_hash",
        "cu_value",
        "cu_value_base_units",
        "expiry",
        "proof",
        "rejection",
      ),
      "the verification's verdict",
    ),
  },
  "bridge.message_sent": {
    summary: "A bridge transfer was sent",
    trigger: "Bridge `MessageSent` on the source chain",
    data: bridgeData(
      {
        fee_option: {
          type: "string",
          enum: [...FEE_OPTION_NAMES],
          description: "how the sender paid the fee",
        },
      },
      "the transfer as `GET /bridge/status/{message_id}` names its fields",
    ),
  },
  "bridge.message_received": {
    summary: "A bridge transfer arrived",
    trigger: "Bridge `MessageReceived` on the destination chain",
    data: bridgeData(
      {
        status: {
          type: "string",
          enum: ["completed", "queued"],
          description: "`queued`: the delivery waits (paused bridge or inbound limit); `completed`: delivered",
        },
      },
      "the arrival",
    ),
  },
  "marketplace.listing_created": {
    summary: "A listing was created (integration-guide list; the same fact as listing.created)",
    trigger: "a market's `ListingCreated`",
    data: positionData("the position as `GET /marketplace/listings` lists it, and its kind"),
  },
  "marketplace.order_created": {
    summary: "A buy order was created",
    trigger: "a market's `OrderCreated`",
    data: positionData("the order as `GET /marketplace/listings` lists it, and its kind"),
  },
  "marketplace.trade_executed": {
    summary: "A trade was executed (a spot fill, an option premium or exercise, a future's settlement)",
    trigger: "a market's `TradeExecuted`",
    data: s.object(
      {
        listing_id: s.listingItemSchema.properties.listing_id,
        trade_type: {
          type: "string",
          enum: TRADE_TYPES.filter((t) => t !== "none"),
          description: "what was traded",
        },
        buyer: { ...s.address, description: "the buyer", examples: [s.EXAMPLE.buyer] },
        seller: { ...s.address, description: "the seller" },
        ...s.sstbAmount("amount", "sSTB traded", "4"),
        ...s.usdcAmount("price", "price per whole sSTB (exercise: the strike)"),
        ...s.usdcAmount("payment", "what the buyer paid", "9.6"),
        ...s.usdcAmount("fee", "the market's fee, out of the payment", "0.0096"),
        transactionHash,
      },
      "the trade",
    ),
  },
  "marketplace.claimable_credited": {
    summary: "A payment the token refused to send (a blacklisted recipient) is held as a claimable balance",
    trigger: "a market's `ClaimableCredited`",
    data: claimableData(
      { ...claimableAmount("amount", "the payment credited", "24") },
      "the credit and the balance after it",
    ),
  },
  "marketplace.claimable_withdrawn": {
    summary: "A claimable balance was withdrawn",
    trigger: "a market's `ClaimableWithdrawn`",
    data: claimableData(
      {
        to: { ...s.address, description: "where it was sent", examples: [s.EXAMPLE.buyer] },
        ...claimableAmount("amount", "the amount withdrawn", "24"),
      },
      "the withdrawal and the balance after it (0)",
    ),
  },
  "redemption.initiated": {
    summary: "A redemption was initiated (the same fact as sstb.redeemed)",
    trigger: "RedemptionManager `RedemptionTerms` (emitted with `RedemptionInitiated`)",
    data: redemptionData(
      { ...s.sstbAmount("fee", "the fee paid to the treasury, on top", "0.0125") },
      "the redemption as `GET /redemptions/{redemptionId}` shows it after the event, and its fee",
    ),
  },
  "redemption.fulfilled": {
    summary: "The provider fulfilled a redemption (access details published, encrypted to the user)",
    trigger: "RedemptionManager `RedemptionFulfilled`",
    data: redemptionData(
      {
        access_details: {
          type: "string",
          description: "the stbad1. envelope encrypted to the user's access key: only the user can open it",
          examples: ["stbad1.eyJ2IjoxfQ"],
        },
      },
      "the redemption after the event, and the access-details envelope",
    ),
  },
  "redemption.confirmed": {
    summary: "The user confirmed a redemption (or its dispute window passed in silence)",
    trigger: "RedemptionManager `RedemptionConfirmed`",
    data: redemptionData({}, "the redemption after the event"),
  },
  "redemption.expired": {
    summary: "A redemption passed its deadline unfulfilled; the user was compensated",
    trigger: "RedemptionManager `RedemptionExpired`",
    data: redemptionData({ ...compensation }, "the redemption after the event, and the compensation"),
  },
  "redemption.disputed": {
    summary: "The user disputed a redemption",
    trigger: "RedemptionManager `DisputeOpened`",
    data: redemptionData(
      {
        issue_type: { type: "string", enum: [...ISSUE_TYPES], description: "what went wrong" },
        evidence_hash: { ...s.txHash, description: "keccak256 of the evidence document" },
      },
      "the redemption after the event, and the dispute",
    ),
  },
  "redemption.resolved": {
    summary: "A dispute was resolved (by the arbitrator, or lapsed with its default outcome)",
    trigger: "RedemptionManager `DisputeResolved` or `DisputeLapsed`",
    data: redemptionData(
      {
        user_won: { type: "boolean", description: "whether the user won" },
        ...compensation,
      },
      "the redemption after the event, and the outcome",
    ),
  },
  "redemption.renewal_offered": {
    summary: "The provider offered to renew a lease",
    trigger: "RedemptionManager `RenewalOffered`",
    data: redemptionData({}, "the lease's redemption with the offer in `lease.renewal_offer`"),
  },
  "redemption.renewed": {
    summary: "The user renewed a lease (a redemption of its own: the same fact as its sstb.redeemed)",
    trigger: "RedemptionManager `LeaseRenewed`",
    data: redemptionData(
      {
        renewal: s.object(
          {
            redemption_id: { type: "string", description: "the renewal's redemption", examples: ["9"] },
            ...s.sstbAmount("fee", "the renewal's fee", "0.005"),
            expires_at: { ...s.unix, description: "Unix seconds: the lease's new end" },
          },
          "the renewal",
        ),
      },
      "the lease's redemption after the event, and the renewal",
    ),
  },
  "redemption.terminated": {
    summary: "The user terminated a lease: the provider reclaims the resources",
    trigger: "RedemptionManager `LeaseTerminated`",
    data: redemptionData({}, "the lease's redemption after the event"),
  },
  "redemption.lease_expiring": {
    summary: "A lease ends soon (time-based notice, once per end)",
    trigger: "the gateway's lease scheduler, at the notice time before the lease's end (chain time)",
    data: leaseNoticeData("the lease's redemption at the notice time"),
  },
  "redemption.lease_ended": {
    summary: "A lease reached its end (time-based notice, once per end)",
    trigger: "the gateway's lease scheduler, at the lease's end (chain time)",
    data: leaseNoticeData("the lease's redemption at its end"),
  },
  [TEST_EVENT]: {
    summary: "A test delivery, sent on request; it announces nothing",
    trigger: "`POST /webhooks/{subscription_id}/test`",
    data: s.object(
      {
        subscription_id: { type: "string", description: "the subscription", examples: [EXAMPLE_SUBSCRIPTION] },
        url: { type: "string", description: "its receiver", examples: ["https://hooks.example.com/compute"] },
        events: {
          type: "array",
          items: { type: "string" },
          description: "the events it is subscribed to",
          examples: [["sstb.minted"]],
        },
        message: { type: "string", description: "what this is", examples: ["A test event, sent on request."] },
      },
      "the subscription tested",
    ),
  },
};

/** The name of an event's schema: `sstb.minted` -> `SstbMintedEvent`. */
export function eventSchemaName(event: string): string {
  return (
    event
      .split(/[._]/)
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join("") + "Event"
  );
}

/** The body of a delivery of `event`, with `data` as given. */
function bodySchema(event: DeliveryEventName, data: Schema) {
  const twins = TWIN_EVENTS.filter((pair) => (pair as readonly string[]).includes(event)).map((pair) =>
    pair.find((e) => e !== event),
  );
  return s.object(
    {
      id: {
        type: "string",
        description:
          "the event's id, the same on every attempt and redelivery of it (the Standard Webhooks `webhook-id` is " +
          "the delivery's). On-chain: `<chainId>:<txHash>:<logIndex>:<event>`",
        examples: [`42161:${s.EXAMPLE.txHash}:3:${event}`],
      },
      fact_id: {
        type: "string",
        description:
          "the fact the event announces: the same for the events that announce one fact under two names" +
          (twins.length === 0 ? "" : ` (here: ${twins.join(", ")})`) +
          ", so a receiver subscribed to both can keep one. On-chain: `<chainId>:<txHash>:<logIndex>` of the " +
          "log that records the fact",
        examples: [`42161:${s.EXAMPLE.txHash}:3`],
      },
      event: { type: "string", const: event, description: "the event's name" },
      timestamp: {
        anyOf: [
          { type: "integer", description: "Unix seconds (the subscription's `timestamp_format: unix`, the default)" },
          { type: "string", format: "date-time", description: "ISO 8601 UTC (`timestamp_format: iso8601`)" },
        ],
        description:
          "when the fact happened: the block time of its log on-chain, the verdict's time for a verification, the " +
          "chain time a lease notice fell due, the request's time for a test. The same on every attempt (the body " +
          "never changes); the send time of an attempt is the `webhook-timestamp` header",
        examples: [s.EXAMPLE.time],
      },
      data,
    },
    `The body of a \`${event}\` delivery: ${EVENT_CATALOGUE[event].summary.toLowerCase()}.`,
  );
}

/** Every event's named schema. */
export const EVENT_SCHEMAS = Object.fromEntries(
  DELIVERY_EVENTS.map((event) => {
    const schema = bodySchema(event, EVENT_CATALOGUE[event].data);
    return [event, component(eventSchemaName(event), schema, exampleOf(schema, event))];
  }),
) as Record<DeliveryEventName, Ref>;

const componentRef = (ref: Ref) => `#/components/schemas/${ref.$ref.replace(/#$/, "")}`;

/** Every event's body: their union, discriminated by `event` (the SDK's `WebhookEvent`). */
export const WebhookEventSchema = component(
  "WebhookEvent",
  {
    description: "The body of any webhook delivery, told apart by `event`.",
    oneOf: DELIVERY_EVENTS.map((event) => ({ $ref: `${eventSchemaName(event)}#` })),
    discriminator: {
      propertyName: "event",
      mapping: Object.fromEntries(DELIVERY_EVENTS.map((e) => [e, componentRef(EVENT_SCHEMAS[e])])),
    },
  },
  exampleOf(EVENT_SCHEMAS["sstb.minted"]),
);

/** The headers of every delivery (in the order a receiver checks them). */
export const DELIVERY_HEADERS = [
  {
    name: "webhook-id",
    description:
      "Standard Webhooks: the delivery's id, the same on every attempt and redelivery (deduplicate on it); equals " +
      "X-SERVICE-Delivery",
    example: "6f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
  },
  {
    name: "webhook-timestamp",
    description:
      "Standard Webhooks: Unix seconds when this attempt was sent. Receivers refuse one outside their tolerance " +
      "(the SDK's default: 5 minutes), which makes a captured delivery useless later",
    example: String(s.EXAMPLE.time),
  },
  {
    name: "webhook-signature",
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` keyed with the ' +
      "subscription's secret (`whsec_...`, as any Standard Webhooks library reads it); during a rotation window " +
      "one such signature per valid secret, separated by spaces",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  },
  {
    name: "X-SERVICE-Signature",
    description:
      "SPEC.md: the lowercase hex HMAC-SHA256 of the body, keyed with the secret's text. Single-valued: during a " +
      "rotation window it is made with the previous secret (receivers not yet updated keep verifying), after the " +
      "window with the new one",
    example: "3f0a7c1e9b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a",
  },
  {
    name: "X-SERVICE-Delivery",
    description: "the delivery's id (as webhook-id)",
    example: "6f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
  },
  { name: "X-SERVICE-Event", description: "the event's name (as the body's `event`)", example: "sstb.minted" },
] as const;

/** The OpenAPI 3.1 `webhooks` section: one operation per event, its body by `$ref`. */
export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(
    DELIVERY_EVENTS.map((event) => {
      const { summary, trigger } = EVENT_CATALOGUE[event];
      const name = eventSchemaName(event);
      const twins = TWIN_EVENTS.filter((pair) => (pair as readonly string[]).includes(event));
      return [
        event,
        {
          post: {
            operationId: `on${name}`,
            summary,
            description:
              `Sent to each subscription to \`${event}\`${event === TEST_EVENT ? " (on request only)" : ""} when ` +
              `${trigger} is indexed (final past the confirmation depth). At least once: deduplicate on ` +
              "`webhook-id`." +
              (twins.length === 0
                ? ""
                : ` The same fact is also announced as ${twins.map((p) => `\`${p.find((e) => e !== event)}\``).join(" and ")}: both carry the same \`fact_id\`.`),
            tags: ["webhook events"],
            parameters: DELIVERY_HEADERS.map((h) => ({
              name: h.name,
              in: "header",
              required: true,
              description: h.description,
              schema: { type: "string" },
              example: h.example,
            })),
            requestBody: {
              required: true,
              description: `The \`${event}\` body (the signatures cover these exact bytes)`,
              content: {
                "application/json": {
                  schema: { $ref: componentRef(EVENT_SCHEMAS[event]) },
                  example: exampleOf(EVENT_SCHEMAS[event]),
                },
              },
            },
            security: [],
            responses: {
              "200": {
                description:
                  "Any 2xx: delivered. Anything else (or no answer within the timeout) is retried with growing " +
                  "delays until the retry window ends; the delivery log shows every attempt",
              },
              "401": { description: "A receiver refuses a delivery whose signature or timestamp does not check out" },
            },
          },
        },
      ];
    }),
  );
}
