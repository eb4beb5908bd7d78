// The protocol SDK (docs/architecture.md): one entry point with explicit named exports, no
// `export *`. It runs in Node and in the browser: nothing under sdk/ imports a Node built-in
// (npm run lint:deps; test/unit/sdk/browser-bundle.test.ts bundles this file for the browser).
// Import it as "#sdk" (package.json "imports").

// --- client, contracts, deployments ---
export { addressOf, createProtocolClient, sendPrepared, signerOf, waitForReceipt } from "./client.js";
export type {
  CreateProtocolClientParameters,
  PreparedTransaction,
  ProtocolAddresses,
  ProtocolClient,
} from "./client.js";
export { getContract } from "./contracts.js";
export type { ContractName, ContractOf } from "./contracts.js";
export { formatDeploymentFile, parseDeploymentFile } from "./deployments.js";
export type { ChainNetwork, DeployedChain, DeploymentRecord } from "./deployments.js";
export { CHAINS, chainNameOf } from "./chains.js";
export type { ChainName } from "./chains.js";

// --- errors ---
export { AccessKeyNotRegisteredError, BaseError, ContractRevertedError, InvalidParameterError } from "./errors.js";
export { PROTOCOL_INTERFACES, decodeRevertData, getContractError, revertDataOf } from "./revert-decoding.js";
export type { BaseErrorParameters, DecodedRevert } from "./errors.js";

// --- redemption: actions (build, send, send and wait) and reads ---
export { approveRedemption, approveRedemptionSync, prepareApproveRedemption } from "./actions/approveRedemption.js";
export type {
  ApproveRedemptionErrorType,
  ApproveRedemptionParameters,
  ApproveRedemptionReturnType,
} from "./actions/approveRedemption.js";
export {
  getRedemptionPermit,
  permitRedemption,
  permitRedemptionSync,
  preparePermitRedemption,
} from "./actions/permitRedemption.js";
export type {
  PermitRedemptionErrorType,
  PermitRedemptionParameters,
  RedemptionPermitParameters,
} from "./actions/permitRedemption.js";
export { initiateRedemption, initiateRedemptionSync, prepareInitiateRedemption } from "./actions/initiateRedemption.js";
export type {
  InitiateRedemptionErrorType,
  InitiateRedemptionParameters,
  InitiateRedemptionReturnType,
} from "./actions/initiateRedemption.js";
export { fulfilRedemption, fulfilRedemptionSync, prepareFulfilRedemption } from "./actions/fulfilRedemption.js";
export type { FulfilRedemptionErrorType, FulfilRedemptionParameters } from "./actions/fulfilRedemption.js";
export { confirmRedemption, confirmRedemptionSync, prepareConfirmRedemption } from "./actions/confirmRedemption.js";
export type { ConfirmRedemptionErrorType, ConfirmRedemptionParameters } from "./actions/confirmRedemption.js";
export { openDispute, openDisputeSync, prepareOpenDispute } from "./actions/openDispute.js";
export type { OpenDisputeErrorType, OpenDisputeParameters } from "./actions/openDispute.js";
export { getRedemption } from "./actions/getRedemption.js";
export type {
  GetRedemptionErrorType,
  GetRedemptionParameters,
  GetRedemptionReturnType,
} from "./actions/getRedemption.js";
export { getAccessDetails } from "./actions/getAccessDetails.js";
export { PROVIDER_STATUSES, PROVIDER_TIERS, quoteRedemption } from "./actions/quoteRedemption.js";
export type {
  QuoteRedemptionErrorType,
  QuoteRedemptionParameters,
  QuoteRedemptionReturnType,
} from "./actions/quoteRedemption.js";
export type { GetAccessDetailsErrorType, GetAccessDetailsParameters } from "./actions/getAccessDetails.js";
export {
  fulfilRedemptionWithLease,
  fulfilRedemptionWithLeaseSync,
  prepareFulfilRedemptionWithLease,
} from "./actions/fulfilRedemptionWithLease.js";
export type {
  FulfilRedemptionWithLeaseErrorType,
  FulfilRedemptionWithLeaseParameters,
  FulfilRedemptionWithLeaseReturnType,
} from "./actions/fulfilRedemptionWithLease.js";
export { IssueType, REDEMPTION_STATUSES, envelopeContext, statusName } from "./redemption.js";
export type { RedemptionStatusName } from "./redemption.js";
export { fulfilEncrypted, readAccessDetails, redeem } from "./redemption-helpers.js";

// --- access keys and leases: register, offer, accept, terminate, and reads ---
export {
  prepareRegisterAccessKey,
  registerAccessKey,
  registerAccessKeySync,
  registerDerivedAccessKey,
} from "./actions/registerAccessKey.js";
export type {
  RegisterAccessKeyErrorType,
  RegisterAccessKeyParameters,
  RegisterDerivedAccessKeyParameters,
} from "./actions/registerAccessKey.js";
export { getAccessKey } from "./actions/getAccessKey.js";
export type { GetAccessKeyErrorType, GetAccessKeyParameters } from "./actions/getAccessKey.js";
export { offerRenewal, offerRenewalSync, prepareOfferRenewal } from "./actions/offerRenewal.js";
export type { OfferRenewalErrorType, OfferRenewalParameters } from "./actions/offerRenewal.js";
export {
  prepareWithdrawRenewalOffer,
  withdrawRenewalOffer,
  withdrawRenewalOfferSync,
} from "./actions/withdrawRenewalOffer.js";
export type { WithdrawRenewalOfferErrorType, WithdrawRenewalOfferParameters } from "./actions/withdrawRenewalOffer.js";
export { acceptRenewal, acceptRenewalSync, prepareAcceptRenewal } from "./actions/acceptRenewal.js";
export type {
  AcceptRenewalErrorType,
  AcceptRenewalParameters,
  AcceptRenewalReturnType,
} from "./actions/acceptRenewal.js";
export { prepareTerminateLease, terminateLease, terminateLeaseSync } from "./actions/terminateLease.js";
export type { TerminateLeaseErrorType, TerminateLeaseParameters } from "./actions/terminateLease.js";
export { getLease } from "./actions/getLease.js";
export type { GetLeaseErrorType, GetLeaseParameters, GetLeaseReturnType, RenewalOffer } from "./actions/getLease.js";
export { getLeaseStatus } from "./actions/getLeaseStatus.js";
export type { GetLeaseStatusErrorType, GetLeaseStatusParameters } from "./actions/getLeaseStatus.js";
export { LEASE_STATUSES, accessKeyBytes, leaseExpiration, leaseStatusName } from "./lease.js";
export type { LeaseStatusName } from "./lease.js";

// --- markets and bridge actions (copied verbatim from issue 24's work in progress, sdk/actions/) ---
export type { TokenApproval } from "./token-approval.js";
export { MARKET_CONTRACTS } from "./market-contracts.js";
export type { MarketName } from "./market-contracts.js";
export { BRIDGE_TOKEN_CONTRACTS } from "./bridge-tokens.js";
// --- tokens: approvals the market, bridge and redemption writes ask for ---
export {
  approveToken,
  approveTokenSync,
  ensureAllowance,
  getAllowance,
  prepareApproveToken,
} from "./actions/approveToken.js";
export type { ApproveTokenErrorType, ApproveTokenParameters, GetAllowanceParameters } from "./actions/approveToken.js";

// --- markets: spot listings and orders, futures, options, and what every market shares ---
export { createSpotListing, createSpotListingSync, prepareCreateSpotListing } from "./actions/createSpotListing.js";
export type { CreateSpotListingErrorType, CreateSpotListingParameters } from "./actions/createSpotListing.js";
export { buySpotListing, buySpotListingSync, prepareBuySpotListing } from "./actions/buySpotListing.js";
export type {
  BuySpotListingErrorType,
  BuySpotListingParameters,
  BuySpotListingReturnType,
} from "./actions/buySpotListing.js";
export { createSpotBuyOrder, createSpotBuyOrderSync, prepareCreateSpotBuyOrder } from "./actions/createSpotBuyOrder.js";
export type { CreateSpotBuyOrderErrorType, CreateSpotBuyOrderParameters } from "./actions/createSpotBuyOrder.js";
export { prepareSellToSpotOrder, sellToSpotOrder, sellToSpotOrderSync } from "./actions/sellToSpotOrder.js";
export type {
  SellToSpotOrderErrorType,
  SellToSpotOrderParameters,
  SellToSpotOrderReturnType,
} from "./actions/sellToSpotOrder.js";
export { offerFuture, offerFutureSync, prepareOfferFuture } from "./actions/offerFuture.js";
export type { OfferFutureErrorType, OfferFutureParameters } from "./actions/offerFuture.js";
export { prepareTakeFuture, takeFuture, takeFutureSync } from "./actions/takeFuture.js";
export type { TakeFutureErrorType, TakeFutureParameters, TakeFutureReturnType } from "./actions/takeFuture.js";
export { prepareSettleFuture, settleFuture, settleFutureSync } from "./actions/settleFuture.js";
export type { SettleFutureErrorType, SettleFutureParameters, SettleFutureReturnType } from "./actions/settleFuture.js";
export { prepareWriteOption, writeOption, writeOptionSync } from "./actions/writeOption.js";
export type { WriteOptionErrorType, WriteOptionParameters } from "./actions/writeOption.js";
export { buyOption, buyOptionSync, prepareBuyOption } from "./actions/buyOption.js";
export type { BuyOptionErrorType, BuyOptionParameters, BuyOptionReturnType } from "./actions/buyOption.js";
export { exerciseOption, exerciseOptionSync, prepareExerciseOption } from "./actions/exerciseOption.js";
export type {
  ExerciseOptionErrorType,
  ExerciseOptionParameters,
  ExerciseOptionReturnType,
} from "./actions/exerciseOption.js";
export { prepareTransferOption, transferOption, transferOptionSync } from "./actions/transferOption.js";
export type { TransferOptionErrorType, TransferOptionParameters } from "./actions/transferOption.js";
export { cancelListing, cancelListingSync, prepareCancelListing } from "./actions/cancelListing.js";
export type { CancelListingErrorType, CancelListingParameters } from "./actions/cancelListing.js";
export { expireListing, expireListingSync, prepareExpireListing } from "./actions/expireListing.js";
export type { ExpireListingErrorType, ExpireListingParameters } from "./actions/expireListing.js";
export { getListing } from "./actions/getListing.js";
export type { GetListingErrorType, GetListingParameters, GetListingReturnType } from "./actions/getListing.js";
export {
  getClaimable,
  prepareWithdrawClaimable,
  withdrawClaimable,
  withdrawClaimableSync,
} from "./actions/withdrawClaimable.js";
export type {
  GetClaimableParameters,
  WithdrawClaimableErrorType,
  WithdrawClaimableParameters,
} from "./actions/withdrawClaimable.js";

// --- bridge: quote, send, status, and delivering a queued message ---
export { quoteBridgeTransfer } from "./actions/quoteBridgeTransfer.js";
export type {
  BridgeFee,
  QuoteBridgeTransferErrorType,
  QuoteBridgeTransferParameters,
  QuoteBridgeTransferReturnType,
} from "./actions/quoteBridgeTransfer.js";
export { prepareSendBridgeTransfer, sendBridgeTransfer, sendBridgeTransferSync } from "./actions/sendBridgeTransfer.js";
export type {
  SendBridgeTransferErrorType,
  SendBridgeTransferParameters,
  SendBridgeTransferReturnType,
} from "./actions/sendBridgeTransfer.js";
export { getBridgeMessage, getBridgeTransferStatus } from "./actions/getBridgeTransferStatus.js";
export type {
  BridgeMessage,
  BridgeTransferStatus,
  GetBridgeMessageErrorType,
  GetBridgeMessageParameters,
  GetBridgeTransferStatusParameters,
  GetBridgeTransferStatusReturnType,
} from "./actions/getBridgeTransferStatus.js";
export {
  executeQueuedMessage,
  executeQueuedMessageSync,
  prepareExecuteQueuedMessage,
} from "./actions/executeQueuedMessage.js";
export type { ExecuteQueuedMessageErrorType, ExecuteQueuedMessageParameters } from "./actions/executeQueuedMessage.js";

// --- providers: registration, collateral, minting, retirement, and the account read ---
export { prepareRegisterProvider, registerProvider, registerProviderSync } from "./actions/registerProvider.js";
export type {
  ProviderProfile,
  RegisterProviderErrorType,
  RegisterProviderParameters,
} from "./actions/registerProvider.js";
export { approveCollateral, approveCollateralSync, prepareApproveCollateral } from "./actions/approveCollateral.js";
export type { ApproveCollateralErrorType, ApproveCollateralParameters } from "./actions/approveCollateral.js";
export { depositCollateral, depositCollateralSync, prepareDepositCollateral } from "./actions/depositCollateral.js";
export type { DepositCollateralErrorType, DepositCollateralParameters } from "./actions/depositCollateral.js";
export { prepareWithdrawCollateral, withdrawCollateral, withdrawCollateralSync } from "./actions/withdrawCollateral.js";
export type { WithdrawCollateralErrorType, WithdrawCollateralParameters } from "./actions/withdrawCollateral.js";
export { prepareVerifyAndMintSSTB, verifyAndMintSSTB, verifyAndMintSSTBSync } from "./actions/verifyAndMintSSTB.js";
export type {
  VerifyAndMintSSTBErrorType,
  VerifyAndMintSSTBParameters,
  VerifyAndMintSSTBReturnType,
} from "./actions/verifyAndMintSSTB.js";
export { approveRetirement, approveRetirementSync, prepareApproveRetirement } from "./actions/approveRetirement.js";
export type { ApproveRetirementErrorType, ApproveRetirementParameters } from "./actions/approveRetirement.js";
export { prepareRetireCapacity, retireCapacity, retireCapacitySync } from "./actions/retireCapacity.js";
export type { RetireCapacityErrorType, RetireCapacityParameters } from "./actions/retireCapacity.js";
export { getProviderAccount } from "./actions/getProviderAccount.js";
export type {
  GetProviderAccountErrorType,
  GetProviderAccountParameters,
  GetProviderAccountReturnType,
} from "./actions/getProviderAccount.js";

// --- access details: envelopes and the wallet-derived key ---
export {
  AccessDetailsError,
  ENVELOPE_PREFIX,
  accessPublicKeyOf,
  decryptAccessDetails,
  encryptAccessDetails,
  generateAccessKeyPair,
  validateAccessDetails,
} from "./access-details.js";
export type { AccessDetails, AccessKeyPair, EnvelopeContext } from "./access-details.js";
export {
  ACCESS_KEY_ISSUED_AT,
  ACCESS_KEY_SALT,
  AccessKeyDerivationError,
  accessKeyMessage,
  accessKeyPairFromSignature,
  deriveAccessKeyPair,
} from "./access-key.js";
export type { AccessKeyMessageParameters, MessageSigner } from "./access-key.js";

// --- verification: attestations, benchmark reports, valuation, the provider review ---
export {
  ATTESTATION_TYPES,
  attestationDomain,
  attestationFromJson,
  attestationSigner,
  attestationToJson,
  buildProof,
  combineSignatures,
  cuHashOf,
  encodeProof,
  randomNonce,
  sampleVerifierKeys,
  signAttestation,
} from "./attestations.js";
export type { Attestation, AttestationJson, ComputeSpecs } from "./attestations.js";
export {
  BENCHMARK_REPORT_TYPES,
  benchmarkReportDomain,
  benchmarkReportHash,
  benchmarkReportSigner,
  canonicalSignature,
  signBenchmarkReport,
  specsOfReport,
} from "./benchmark-report.js";
export type { BenchmarkReport, SignedBenchmarkReport } from "./benchmark-report.js";
export {
  PLAUSIBLE_RATIO_BPS,
  REFERENCE_SERVER,
  REFERENCE_VALUE,
  VALUE_SHARES_BPS,
  cuValueOf,
  implausibleFigure,
  scoresFor,
} from "./valuation.js";
export type { Implausibility } from "./valuation.js";
export { hashReviewedProfile } from "./provider-review.js";
export type { ReviewedProfile } from "./provider-review.js";

// --- tokens, roles, governance ---
export { PERMIT_TYPES, getPermitTypedData, signPermit } from "./permits.js";
export type { PermitToken, PermitTypedData } from "./permits.js";
export { Roles } from "./roles.js";
export type { RoleName } from "./roles.js";
export {
  PROPOSAL_STATES,
  Vote,
  currentRoleHolders,
  descriptionHash,
  execute,
  proposalCall,
  proposalIdOf,
  proposalOf,
  propose,
  queue,
} from "./governance.js";
export type { Proposal, RoleHolding } from "./governance.js";

// --- markets and the bridge ---
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
  chainSelectorOf,
  routeTo,
} from "./bridge.js";
export type { FeeOptionName, RateLimit, RouteConfig, RouteLimits } from "./bridge.js";

// --- the gateway's HTTP API ---
export { ApiResponseError, createApiClient, unwrap } from "./api/client.js";
export type { ApiClient, ApiErrorBody, ApiPaths, CreateApiClientParameters } from "./api/client.js";

// --- webhooks ---
export {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  WEBHOOK_EVENT_GROUPS,
  constantTimeEqual,
  signBody,
  verifySignature,
  verifyWebhook,
} from "./webhooks.js";
export type { VerifiedWebhook, WebhookPayload, WebhookRefusal } from "./webhooks.js";
