import { getAddress } from "ethers";

import { invalidParameter } from "../http/errors.js";
import { reputation, sstb } from "../http/format.js";
import type { ComputeUnitRow, ProviderRow, ReadModel } from "../store/queries.js";

/**
 * The spec's two GraphQL queries with their exact field names. Types the spec leaves open:
 * amounts are whole sSTB (Float), times Unix seconds (Int), `reputation` 0..100.00.
 */
export const typeDefs = /* GraphQL */ `
  type Query {
    "A provider by its id (chain address); null if there is none."
    provider(id: ID!): Provider
    "The latest marketplace activity, newest first (limit 1..100)."
    marketplaceActivity(limit: Int!): [MarketplaceActivity!]!
  }

  type Provider {
    id: ID!
    name: String!
    "0..100.00"
    reputation: Float!
    "Verified capacity not yet retired, whole sSTB."
    totalComputeValue: Float!
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
    amount: Float!
    price: Float!
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
    },
    Provider: {
      id: (p: ProviderRow) => p.providerId,
      name: (p: ProviderRow) => p.name,
      reputation: (p: ProviderRow) => reputation(p.reputation),
      totalComputeValue: (p: ProviderRow) => sstb(p.totalCu),
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
