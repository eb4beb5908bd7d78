// The `./constants` entry: the protocol's fixed facts, with no protocol logic and no ABI: role ids,
// the chains and their ids, CCIP selectors, routers, fee options and route structs, the
// deployments file format, the markets' enums and arithmetic, when a queued bridge delivery completes. What deploy/ reads (it imports no
// other part of the SDK), and what a page that only names things needs.
export { Roles } from "./roles.js";
export type { RoleName } from "./roles.js";
export { CHAINS, chainNameOf } from "./chains.js";
export type { ChainName } from "./chains.js";
export {
  BridgeToken,
  CCIP_CHAIN_SELECTORS,
  CCIP_ROUTERS,
  DEFAULT_DELIVERY_GAS_LIMIT,
  EXECUTION_STATES,
  FEE_OPTION_NAMES,
  FeeOption,
  MESSAGE_STATUSES,
  NO_LIMIT,
  PAUSED_INDEFINITELY,
  chainSelectorOf,
  estimateQueuedDelivery,
  routeTo,
} from "./bridge.js";
export type {
  FeeOptionName,
  QueuedDeliveryEstimate,
  QueuedDeliveryState,
  RateLimit,
  RouteConfig,
  RouteLimits,
} from "./bridge.js";
export { formatDeploymentFile, parseDeploymentFile } from "./deployments.js";
export type { ChainNetwork, DeployedChain, DeploymentRecord } from "./deployments.js";
export {
  LISTING_STATUSES,
  MARKET_TYPES,
  POSITION_KINDS,
  PRICE_UNIT,
  TRADE_TYPES,
  cost,
  fillPayment,
  listingStatusName,
  marketFee,
  marketTypeOf,
} from "./markets.js";
