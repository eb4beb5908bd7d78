// The SDK's root entry (`@compute-capacity/sdk`): every public name, listed one by one (no
// `export *`; nothing runs at import, `"sideEffects": false`, so a bundle keeps what it uses). The
// narrower entries are `./actions`, `./api`, `./webhooks`, `./constants` and `./abis`. It runs in
// Node and in the browser: nothing under sdk/ imports a Node built-in (npm run lint:deps;
// test/unit/sdk/browser-bundle.test.ts bundles it for the browser).

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
export {
  contractAt,
  contractReader,
  decodeFunctionResult,
  deployedContract,
  deployedReader,
  encodeFunctionCall,
  interfaceOf,
  parseEventLogs,
  readContract,
} from "./contract-calls.js";
export type { ContractReader, DecodedEvent, ReadContractParameters } from "./contract-calls.js";
export type {
  Abi,
  AbiEvent,
  AbiFunction,
  AbiItem,
  AbiParameter,
  AbiParameterInput,
  AbiParameterOutput,
  EventArgs,
  EventName,
  FunctionArgs,
  FunctionName,
  FunctionResult,
  TypedContract,
  TypedContractMethod,
} from "./abi-types.js";
export type { TokenApproval } from "./token-approval.js";
export { MARKET_CONTRACTS } from "./market-contracts.js";
export type { MarketName } from "./market-contracts.js";
export { BRIDGE_TOKEN_CONTRACTS } from "./bridge-tokens.js";
export type { BridgeTokenSymbol } from "./bridge-tokens.js";

// --- the ABIs (generated from the contracts: npm run sdk:abis) ---
export {
  attestationVerifierAbi,
  bridgeAbi,
  bridgedGovernanceTokenAbi,
  contractAbis,
  cuTokenAbi,
  erc20Abi,
  futuresMarketAbi,
  governanceChannelAbi,
  governanceTokenAbi,
  mintingAgentAbi,
  optionsMarketAbi,
  protocolErrorsAbi,
  protocolGovernorAbi,
  protocolTimelockAbi,
  providerRegistryAbi,
  redemptionManagerAbi,
  redemptionViewsAbi,
  satelliteExecutorAbi,
  spotMarketAbi,
  sstbAbi,
} from "./abis/index.js";

// --- constants: roles, chains, the bridge's, the deployments file, the markets' ---
export {
  BridgeToken,
  CCIP_CHAIN_SELECTORS,
  CCIP_ROUTERS,
  CHAINS,
  DEFAULT_DELIVERY_GAS_LIMIT,
  EXECUTION_STATES,
  FEE_OPTION_NAMES,
  FeeOption,
  LISTING_STATUSES,
  MARKET_TYPES,
  MESSAGE_STATUSES,
  NO_LIMIT,
  PAUSED_INDEFINITELY,
  POSITION_KINDS,
  PRICE_UNIT,
  Roles,
  TRADE_TYPES,
  chainNameOf,
  chainSelectorOf,
  estimateQueuedDelivery,
  cost,
  fillPayment,
  formatDeploymentFile,
  listingStatusName,
  marketFee,
  marketTypeOf,
  parseDeploymentFile,
  routeTo,
} from "./constants.js";
export type {
  ChainName,
  ChainNetwork,
  DeployedChain,
  DeploymentRecord,
  FeeOptionName,
  QueuedDeliveryEstimate,
  QueuedDeliveryState,
  RateLimit,
  RoleName,
  RouteConfig,
  RouteLimits,
} from "./constants.js";

// --- errors ---
export { AccessKeyNotRegisteredError, BaseError, ContractRevertedError, InvalidParameterError } from "./errors.js";
export { decodeRevertData, getContractError, revertDataOf } from "./revert-decoding.js";
export type { BaseErrorParameters, DecodedRevert } from "./errors.js";

// --- actions (also the `./actions` entry) ---
// --- redemption: approve (or permit), initiate, fulfil, confirm, dispute, and reads ---
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
export { PROVIDER_STATUSES, PROVIDER_TIERS, quoteRedemption } from "./actions/quoteRedemption.js";
export type {
  QuoteRedemptionErrorType,
  QuoteRedemptionParameters,
  QuoteRedemptionReturnType,
} from "./actions/quoteRedemption.js";
export { getAccessDetails } from "./actions/getAccessDetails.js";
export type { GetAccessDetailsErrorType, GetAccessDetailsParameters } from "./actions/getAccessDetails.js";

// --- access keys and leases ---
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
export { getLeaseId } from "./actions/getLeaseId.js";
export type { GetLeaseIdErrorType, GetLeaseIdParameters } from "./actions/getLeaseId.js";
export { getLeaseStatus } from "./actions/getLeaseStatus.js";
export type { GetLeaseStatusErrorType, GetLeaseStatusParameters } from "./actions/getLeaseStatus.js";

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

// --- governance: delegate, propose, vote, queue, execute, and a proposal's state ---
export { delegateVotes, delegateVotesSync, prepareDelegateVotes } from "./actions/delegateVotes.js";
export type { DelegateVotesErrorType, DelegateVotesParameters } from "./actions/delegateVotes.js";
export { preparePropose, propose, proposeSync } from "./actions/propose.js";
export type { ProposeErrorType, ProposeParameters } from "./actions/propose.js";
export { castVote, castVoteSync, prepareCastVote } from "./actions/castVote.js";
export type { CastVoteErrorType, CastVoteParameters } from "./actions/castVote.js";
export { prepareQueueProposal, queueProposal, queueProposalSync } from "./actions/queueProposal.js";
export type { QueueProposalErrorType, QueueProposalParameters } from "./actions/queueProposal.js";
export { executeProposal, executeProposalSync, prepareExecuteProposal } from "./actions/executeProposal.js";
export type { ExecuteProposalErrorType, ExecuteProposalParameters } from "./actions/executeProposal.js";
export { getProposalState } from "./actions/getProposalState.js";
export type {
  GetProposalStateErrorType,
  GetProposalStateParameters,
  GetProposalStateReturnType,
} from "./actions/getProposalState.js";

// --- redemptions and leases: statuses and helpers ---
export { ISSUE_TYPES, IssueType, REDEMPTION_STATUSES, envelopeContext, statusName } from "./redemption.js";
export type { IssueTypeName, RedemptionStatusName } from "./redemption.js";
export type { PortalChain, PortalConfig } from "./portal-config.js";
export { LEASE_STATUSES, accessKeyBytes, leaseExpiration, leaseStatusName } from "./lease.js";
export type { LeaseStatusName } from "./lease.js";

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

// --- tokens and governance ---
export { PERMIT_TYPES, getPermitTypedData, signPermit } from "./permits.js";
export type { PermitToken, PermitTypedData } from "./permits.js";
export {
  PROPOSAL_STATES,
  Vote,
  currentRoleHolders,
  descriptionHash,
  proposalCall,
  proposalIdOf,
  proposalOf,
} from "./governance.js";
export type { Proposal, ProposalCall, ProposalCallParameters, ProposalStateName, RoleHolding } from "./governance.js";

// --- the gateway's HTTP API (also the `./api` entry) ---
export { createApiClient, unwrap } from "./api/client.js";
export type { ApiClient, ApiPaths, CreateApiClientParameters } from "./api/client.js";
export {
  API_ERROR_CODES,
  ApiAuthenticationError,
  ApiAuthorizationError,
  ApiConnectionError,
  ApiInternalError,
  ApiInvalidParameterError,
  ApiNotFoundError,
  ApiRateLimitError,
  ApiResponseError,
  REQUEST_ID_HEADER,
  apiErrorOf,
} from "./api/errors.js";
export type { ApiErrorBody, ApiErrorCode, ApiResponseErrorOptions } from "./api/errors.js";
export { paginate } from "./api/paginate.js";
export type { PagedItem, PagedPath, PagedQuery, PaginateInit } from "./api/paginate.js";
export { IDEMPOTENCY_KEY_HEADER, backoffMs, createRetryingFetch, retryAfterMs } from "./api/transport.js";
export type { RetryOptions } from "./api/transport.js";

// the API's named schemas (ComputeUnit, Provider, Redemption, ..., every webhook event and their
// union WebhookEvent), generated from the gateway's OpenAPI document
export type * from "./api/schemas.js";

// --- webhooks (also the `./webhooks` entry) ---
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  WEBHOOK_EVENT_GROUPS,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  WebhookVerificationError,
  constantTimeEqual,
  constructEvent,
  signBody,
  signatureHeaders,
  standardSignature,
  verifySignature,
  verifyWebhook,
} from "./webhooks.js";
export type {
  ConstructEventOptions,
  HmacSha256,
  VerifiedWebhook,
  WebhookHeaders,
  WebhookPayload,
  WebhookRefusal,
  WebhookVerificationReason,
} from "./webhooks.js";
