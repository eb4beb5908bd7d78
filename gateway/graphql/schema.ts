import { getAddress } from "ethers";

import { invalidParameter } from "../http/errors.js";
import { claimableBalance, reputation, sstb, units } from "../http/format.js";
import type { ComputeUnitRow, ProviderRow, ReadModel } from "../store/queries.js";

/**
 * The spec's two GraphQL queries with their exact field names, and the markets' claimable balances.
 * Types the spec leaves open: amounts are whole tokens (Float) and, exactly, base units as a
 * decimal String (`…BaseUnits`), times Unix seconds (Int), `reputation` 0..100.00.
 */
export const typeDefs = /* GraphQL */ `
  type Query {
    "A provider by its id (chain address); null if there is none."
    provider(id: ID!): Provider
    "The latest marketplace activity, newest first (limit 1..100)."
    marketplaceActivity(limit: Int!): [MarketplaceActivity!]!
    "An account's claimable balances in the markets (payments the token refused to send it), largest first; withdrawn ones too with includeEmpty."
    claimableBalances(account: ID!, token: String, includeEmpty: Boolean = false): [ClaimableBalance!]!
  }

  "A payment a market holds for an account that could not receive it (withdrawClaimable(token, to) sends it)."
  type ClaimableBalance {
    account: String!
    "spot, futures or options"
    marketType: String!
    "The market contract."
    market: String!
    token: String!
    tokenSymbol: String!
    tokenDecimals: Int!
    "Claimable now, whole tokens."
    amount: Float!
    "Claimable now, exact: token base units."
    amountBaseUnits: String!
    "Every credit ever, exact: token base units."
    creditedTotalBaseUnits: String!
    "Unix seconds of the last credit or withdrawal."
    updatedAt: Int!
  }

  type Provider {
    id: ID!
    name: String!
    "0..100.00"
    reputation: Float!
    "Verified capacity not yet retired, whole sSTB."
    totalComputeValue: Float!
    "Verified capacity not yet retired, exact: sSTB base units (18 decimals)."
    totalComputeValueBaseUnits: String!
    verificationMethod: String!
    "Registration time, Unix seconds."
    joinedAt: Int!
    computeResources: [ComputeResource!]!
  }

  type ComputeResource {
    "The compute unit id."
    id: ID!
    "The unit's identity (cuHash)."
    resourceId: String!
    specifications: Specifications!
    verificationMethod: String!
    "Seconds the capacity is committed (from the mint)."
    stakingPeriod: Int
    "The registry's collateral ratio, e.g. 1.2 for 120%."
    collateralization: Float
    "The unit's value in whole sSTB (1 sSTB = 1 unit of CU value)."
    price: Float!
    "The unit's value, exact: sSTB base units (18 decimals)."
    priceBaseUnits: String!
    "End of the staking period, Unix seconds."
    expirationDate: Int
  }

  type Specifications {
    cpuCores: Int!
    memoryGB: Int!
    storageGB: Int!
    bandwidthMbps: Int!
  }

  type MarketplaceActivity {
    id: ID!
    timestamp: Int!
    activityType: String!
    tokenType: String!
    "Whole sSTB."
    amount: Float!
    "Exact: sSTB base units (18 decimals)."
    amountBaseUnits: String!
    "Whole USDC per whole sSTB."
    price: Float!
    "Exact: USDC base units (6 decimals) per whole sSTB."
    priceBaseUnits: String!
    buyer: Account
    seller: Account
  }

  type Account {
    id: ID!
    address: String!
  }
`;

/** The marketplace feed GraphQL reads (markets plug in here). */
export interface ActivitySource {
  activity(limit: number): Promise<unknown[]>;
}

export function resolvers(model: ReadModel, activity: ActivitySource) {
  const resourceOf = (row: ComputeUnitRow, methods: Map<number, string>, ratioBps: bigint | undefined) => ({
    id: String(row.cuId),
    resourceId: row.cuHash,
    specifications: {
      cpuCores: row.cpuCores,
      memoryGB: row.ramGb,
      storageGB: row.storageGb,
      bandwidthMbps: row.networkMbps,
    },
    verificationMethod: methods.get(row.cuId) ?? "attestation",
    stakingPeriod: row.stakingPeriod,
    collateralization: ratioBps === undefined ? null : Number(ratioBps) / 10_000,
    price: sstb(row.cuValue),
    priceBaseUnits: units(row.cuValue),
    expirationDate: row.stakingPeriod === null ? null : row.verifiedAt + row.stakingPeriod,
  });

  return {
    Query: {
      async provider(_: unknown, { id }: { id: string }) {
        let address: string;
        try {
          address = getAddress(id.toLowerCase());
        } catch {
          throw invalidParameter("id", "must be a provider's chain address (0x and 40 hex digits)");
        }
        const row = await model.provider(address);
        return row === undefined ? null : row;
      },
      async marketplaceActivity(_: unknown, { limit }: { limit: number }) {
        if (!(limit >= 1 && limit <= 100)) throw invalidParameter("limit", "must be 1..100");
        return activity.activity(limit);
      },
      async claimableBalances(
        _: unknown,
        { account, token, includeEmpty }: { account: string; token?: string | null; includeEmpty?: boolean | null },
      ) {
        const address = (value: string, name: string) => {
          if (!/^0x[0-9a-fA-F]{40}$/.test(value))
            throw invalidParameter(name, "must be a chain address (0x and 40 hex digits)");
          return value;
        };
        const { rows } = await model.claimableBalancesOf(
          address(account, "account"),
          { token: token == null ? undefined : address(token, "token"), includeEmpty: includeEmpty === true },
          { page: 1, limit: 100 },
        );
        return rows.map((row) => {
          const b = claimableBalance(row);
          return {
            account: b.account,
            marketType: b.market_type,
            market: b.market,
            token: b.token,
            tokenSymbol: b.token_symbol,
            tokenDecimals: b.token_decimals,
            amount: b.amount,
            amountBaseUnits: b.amount_base_units,
            creditedTotalBaseUnits: b.credited_total_base_units,
            updatedAt: b.updated_at,
          };
        });
      },
    },
    Provider: {
      id: (p: ProviderRow) => p.providerId,
      name: (p: ProviderRow) => p.name,
      reputation: (p: ProviderRow) => reputation(p.reputation),
      totalComputeValue: (p: ProviderRow) => sstb(p.totalCu),
      totalComputeValueBaseUnits: (p: ProviderRow) => units(p.totalCu),
      verificationMethod: () => "attestation",
      joinedAt: (p: ProviderRow) => p.registeredAt,
      async computeResources(p: ProviderRow) {
        const rows = await model.computeUnitsOf([p.providerId]);
        const methods = await model.methodsOf(rows.map((r) => r.cuId));
        const ratio = await model.parameter("ProviderRegistry", "collateralRatioBps");
        return rows.map((r) => resourceOf(r, methods, ratio));
      },
    },
  };
}
