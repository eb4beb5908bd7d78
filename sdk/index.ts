// The protocol SDK: one entry point, explicit named exports (no `export *`). Runs in Node and in
// the browser: nothing under sdk/ imports a Node built-in (test/ts/sdk/browser-bundle.test.ts).

export {
  AccessDetailsError,
  accessPublicKeyOf,
  decryptAccessDetails,
  encryptAccessDetails,
  ENVELOPE_PREFIX,
  generateAccessKeyPair,
  validateAccessDetails,
} from "./access-details.js";
export type { AccessDetails, AccessKeyPair, EnvelopeContext } from "./access-details.js";

export {
  ATTESTATION_TYPES,
  sampleVerifierKeys,
  attestationDomain,
  attestationFromJson,
  attestationSigner,
  attestationToJson,
  buildProof,
  combineSignatures,
  cuHashOf,
  encodeProof,
  randomNonce,
  signAttestation,
} from "./attestations.js";
export type { Attestation, AttestationJson, ComputeSpecs } from "./attestations.js";

export {
  benchmarkReportDomain,
  benchmarkReportHash,
  benchmarkReportSigner,
  signBenchmarkReport,
  specsOfReport,
} from "./benchmark-report.js";
export type { SignedBenchmarkReport } from "./benchmark-report.js";

export {
  CCIP_CHAIN_SELECTORS,
  CCIP_ROUTERS,
  chainSelectorOf,
  EXECUTION_STATES,
  FeeOption,
  MESSAGE_STATUSES,
  NO_LIMIT,
  routeTo,
} from "./bridge.js";
export type { FeeOptionName, RateLimit, RouteLimits } from "./bridge.js";

export { CHAINS, chainNameOf } from "./chains.js";
export type { ChainName } from "./chains.js";

export { formatDeploymentFile, parseDeploymentFile } from "./deployments.js";
export type { ChainNetwork, DeployedChain, DeploymentRecord } from "./deployments.js";

export {
  currentRoleHolders,
  descriptionHash,
  execute,
  PROPOSAL_STATES,
  proposalCall,
  proposalIdOf,
  proposalOf,
  propose,
  queue,
  Vote,
} from "./governance.js";
export type { Proposal } from "./governance.js";

export {
  cost,
  fillPayment,
  LISTING_STATUSES,
  listingStatusName,
  MARKET_TYPES,
  marketFee,
  POSITION_KINDS,
  TRADE_TYPES,
} from "./markets.js";

export { signPermit } from "./permits.js";

export { hashReviewedProfile } from "./provider-review.js";

export {
  envelopeContext,
  fulfilEncrypted,
  IssueType,
  readAccessDetails,
  redeem,
  REDEMPTION_STATUSES,
  statusName,
} from "./redemption.js";

export { Roles } from "./roles.js";

export { cuValueOf, implausibleFigure, REFERENCE_SERVER, REFERENCE_VALUE, scoresFor } from "./valuation.js";

export {
  constantTimeEqual,
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  signBody,
  verifySignature,
  verifyWebhook,
} from "./webhooks.js";
export type { VerifiedWebhook, WebhookPayload, WebhookRefusal } from "./webhooks.js";
