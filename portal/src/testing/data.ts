import type {
  AccountRedemption,
  ApiKey,
  PortalSession,
  ProviderDetail,
  Redemption,
  RedemptionQuote,
  SstbBalance,
} from "@compute-capacity/sdk";

/** Addresses the tests' people use. */
export const HOLDER = "0x1111111111111111111111111111111111111111";
export const PROVIDER = "0x2222222222222222222222222222222222222222";
export const STRANGER = "0x3333333333333333333333333333333333333333";
/** A chain time the tests fix (2026-01-01T00:00:00Z). */
export const CHAIN_NOW = 1_767_225_600;

// the API's named types from the SDK (generated from the gateway's OpenAPI document)
type Provider = ProviderDetail;
type Quote = RedemptionQuote;
type Balance = SstbBalance;

/** An 18-decimal amount (sSTB, CU) in base units, as the API's `*_base_units` give it. */
export const baseUnits = (whole: number): string => `${BigInt(Math.round(whole * 1e6)) * 10n ** 12n}`;

/** The session of `address`. */
export const aSession = (address = HOLDER): PortalSession => ({
  address,
  created_at: CHAIN_NOW - 60,
  expires_at: CHAIN_NOW + 3_600,
});

export const aBalance = (sstb = 12.5): Balance => ({
  account: HOLDER,
  balances: [
    {
      chain: "arbitrum",
      native_chain_id: 42161,
      sstb_balance: sstb,
      sstb_balance_base_units: baseUnits(sstb),
    },
    { chain: "ethereum", native_chain_id: 1, sstb_balance: 0, sstb_balance_base_units: "0" },
  ],
  sstb_balance: sstb,
  sstb_balance_base_units: baseUnits(sstb),
});

export const aRedemption = (overrides: Partial<Redemption> = {}): Redemption => ({
  redemption_id: "7",
  user: HOLDER,
  provider_id: PROVIDER,
  sstb_amount: 1,
  sstb_amount_base_units: baseUnits(1),
  status: "pending",
  initiated_at: CHAIN_NOW - 600,
  estimated_fulfillment_time: CHAIN_NOW + 6 * 3_600,
  fulfilled_at: null,
  completed_at: null,
  access_public_key: null,
  lease: null,
  ...overrides,
});

export const anAccountRedemption = (overrides: Partial<AccountRedemption> = {}): AccountRedemption => ({
  ...aRedemption(),
  collateral_locked: 1.2,
  collateral_locked_base_units: "1200000",
  disputed_at: null,
  fee: 0.001,
  fee_base_units: baseUnits(0.001),
  issue_type: null,
  user_access_key: null,
  user_won: null,
  ...overrides,
});

/** A page of the account's redemptions. */
export const aRedemptionPage = (redemptions: AccountRedemption[] = []) => ({
  redemptions,
  total: redemptions.length,
  page: 1,
  limit: 100,
});

export const aProvider = (overrides: Partial<Provider> = {}): Provider => ({
  provider_id: PROVIDER,
  name: "Acme Compute",
  status: "active",
  reputation_score: 50,
  registration_date: CHAIN_NOW - 86_400,
  location: { country: "DE", region: "Hesse" },
  contact_info: { email: "ops@acme.example", website: "https://acme.example" },
  hardware_specifications: {
    cpu_type: "AMD EPYC 9654",
    total_cpu_cores: 64,
    total_ram_gb: 256,
    total_storage_gb: 4096,
    network_capacity_mbps: 10_000,
  },
  available_cu_value: 80,
  available_cu_value_base_units: baseUnits(80),
  total_cu_value: 100,
  total_cu_value_base_units: baseUnits(100),
  statistics: {
    available_cu_value: 80,
    available_cu_value_base_units: baseUnits(80),
    total_cu_value: 100,
    total_cu_value_base_units: baseUnits(100),
    total_redemptions: 0,
    successful_redemptions: 0,
    average_response_time: 0,
  },
  ...overrides,
});

export const aQuote = (overrides: Partial<Quote> = {}): Quote =>
  ({
    provider_id: PROVIDER,
    provider_status: "active",
    sstb_amount: 1,
    fee: 0.001,
    total: 1.001,
    total_base_units: "1001000000000000000",
    minimum: 0.1,
    tier: "premium",
    fulfilment_seconds: 6 * 3_600,
    deadline: CHAIN_NOW + 6 * 3_600,
    collateral_locked: 1.2,
    collateral_ratio_bps: 12_000,
    collateral_token: { address: "0x00000000000000000000000000000000000000a5", symbol: "mUSDC", decimals: 6 },
    provider_available_cu_value: 80,
    compensation: {
      applies_now: "during_stake",
      provider_staked_until: CHAIN_NOW + 30 * 86_400,
      if_expired_during_stake: 1,
      if_expired_after_stake: 1.2,
      if_dispute_won: 1.2,
    },
    refusal: null,
    ...overrides,
  }) as Quote;

export const anApiKey = (overrides: Partial<ApiKey> = {}): ApiKey =>
  ({
    key_id: "key-1",
    label: "ci",
    tier: "standard",
    rate_limit: 100,
    scopes: ["read"],
    created_at: CHAIN_NOW - 3_600,
    expires_at: null,
    revoked_at: null,
    last_used_at: null,
    requests_24h: 0,
    ...overrides,
  }) as ApiKey;
