// The `./actions` entry: every operation as `action(client, parameters)`, writes in three forms
// (`prepareX` builds the transaction, `x` sends it and returns the hash, `xSync` also waits for
// the receipt and decodes what it says), reads as one call. Explicit named exports, no `export *`.

// --- redemption: approve (or permit), initiate, fulfil, confirm, dispute, and reads ---
export { approveRedemption, approveRedemptionSync, prepareApproveRedemption } from "./approveRedemption.js";
export type {
  ApproveRedemptionErrorType,
  ApproveRedemptionParameters,
  ApproveRedemptionReturnType,
} from "./approveRedemption.js";
export {
  getRedemptionPermit,
  permitRedemption,
  permitRedemptionSync,
  preparePermitRedemption,
} from "./permitRedemption.js";
export type {
  PermitRedemptionErrorType,
  PermitRedemptionParameters,
  RedemptionPermitParameters,
} from "./permitRedemption.js";
export { initiateRedemption, initiateRedemptionSync, prepareInitiateRedemption } from "./initiateRedemption.js";
export type {
  InitiateRedemptionErrorType,
  InitiateRedemptionParameters,
  InitiateRedemptionReturnType,
} from "./initiateRedemption.js";
export { fulfilRedemption, fulfilRedemptionSync, prepareFulfilRedemption } from "./fulfilRedemption.js";
export type { FulfilRedemptionErrorType, FulfilRedemptionParameters } from "./fulfilRedemption.js";
export {
  fulfilRedemptionWithLease,
  fulfilRedemptionWithLeaseSync,
  prepareFulfilRedemptionWithLease,
} from "./fulfilRedemptionWithLease.js";
export type {
  FulfilRedemptionWithLeaseErrorType,
  FulfilRedemptionWithLeaseParameters,
  FulfilRedemptionWithLeaseReturnType,
} from "./fulfilRedemptionWithLease.js";
export { confirmRedemption, confirmRedemptionSync, prepareConfirmRedemption } from "./confirmRedemption.js";
export type { ConfirmRedemptionErrorType, ConfirmRedemptionParameters } from "./confirmRedemption.js";
export { openDispute, openDisputeSync, prepareOpenDispute } from "./openDispute.js";
export type { OpenDisputeErrorType, OpenDisputeParameters } from "./openDispute.js";
export { getRedemption } from "./getRedemption.js";
export type { GetRedemptionErrorType, GetRedemptionParameters, GetRedemptionReturnType } from "./getRedemption.js";
export { PROVIDER_STATUSES, PROVIDER_TIERS, quoteRedemption } from "./quoteRedemption.js";
export type {
  QuoteRedemptionErrorType,
  QuoteRedemptionParameters,
  QuoteRedemptionReturnType,
} from "./quoteRedemption.js";
export { getAccessDetails } from "./getAccessDetails.js";
export type { GetAccessDetailsErrorType, GetAccessDetailsParameters } from "./getAccessDetails.js";

// --- access keys and leases ---
export {
  prepareRegisterAccessKey,
  registerAccessKey,
  registerAccessKeySync,
  registerDerivedAccessKey,
} from "./registerAccessKey.js";
export type {
  RegisterAccessKeyErrorType,
  RegisterAccessKeyParameters,
  RegisterDerivedAccessKeyParameters,
} from "./registerAccessKey.js";
export { getAccessKey } from "./getAccessKey.js";
export type { GetAccessKeyErrorType, GetAccessKeyParameters } from "./getAccessKey.js";
export { offerRenewal, offerRenewalSync, prepareOfferRenewal } from "./offerRenewal.js";
export type { OfferRenewalErrorType, OfferRenewalParameters } from "./offerRenewal.js";
export { prepareWithdrawRenewalOffer, withdrawRenewalOffer, withdrawRenewalOfferSync } from "./withdrawRenewalOffer.js";
export type { WithdrawRenewalOfferErrorType, WithdrawRenewalOfferParameters } from "./withdrawRenewalOffer.js";
export { acceptRenewal, acceptRenewalSync, prepareAcceptRenewal } from "./acceptRenewal.js";
export type { AcceptRenewalErrorType, AcceptRenewalParameters, AcceptRenewalReturnType } from "./acceptRenewal.js";
export { prepareTerminateLease, terminateLease, terminateLeaseSync } from "./terminateLease.js";
export type { TerminateLeaseErrorType, TerminateLeaseParameters } from "./terminateLease.js";
export { getLease } from "./getLease.js";
export type { GetLeaseErrorType, GetLeaseParameters, GetLeaseReturnType, RenewalOffer } from "./getLease.js";
export { getLeaseId } from "./getLeaseId.js";
export type { GetLeaseIdErrorType, GetLeaseIdParameters } from "./getLeaseId.js";
export { getLeaseStatus } from "./getLeaseStatus.js";
export type { GetLeaseStatusErrorType, GetLeaseStatusParameters } from "./getLeaseStatus.js";

// --- tokens: approvals the market, bridge and redemption writes ask for ---
export { approveToken, approveTokenSync, ensureAllowance, getAllowance, prepareApproveToken } from "./approveToken.js";
export type { ApproveTokenErrorType, ApproveTokenParameters, GetAllowanceParameters } from "./approveToken.js";

// --- markets: spot listings and orders, futures, options, and what every market shares ---
export { createSpotListing, createSpotListingSync, prepareCreateSpotListing } from "./createSpotListing.js";
export type { CreateSpotListingErrorType, CreateSpotListingParameters } from "./createSpotListing.js";
export { buySpotListing, buySpotListingSync, prepareBuySpotListing } from "./buySpotListing.js";
export type { BuySpotListingErrorType, BuySpotListingParameters, BuySpotListingReturnType } from "./buySpotListing.js";
export { createSpotBuyOrder, createSpotBuyOrderSync, prepareCreateSpotBuyOrder } from "./createSpotBuyOrder.js";
export type { CreateSpotBuyOrderErrorType, CreateSpotBuyOrderParameters } from "./createSpotBuyOrder.js";
export { prepareSellToSpotOrder, sellToSpotOrder, sellToSpotOrderSync } from "./sellToSpotOrder.js";
export type {
  SellToSpotOrderErrorType,
  SellToSpotOrderParameters,
  SellToSpotOrderReturnType,
} from "./sellToSpotOrder.js";
export { offerFuture, offerFutureSync, prepareOfferFuture } from "./offerFuture.js";
export type { OfferFutureErrorType, OfferFutureParameters } from "./offerFuture.js";
export { prepareTakeFuture, takeFuture, takeFutureSync } from "./takeFuture.js";
export type { TakeFutureErrorType, TakeFutureParameters, TakeFutureReturnType } from "./takeFuture.js";
export { prepareSettleFuture, settleFuture, settleFutureSync } from "./settleFuture.js";
export type { SettleFutureErrorType, SettleFutureParameters, SettleFutureReturnType } from "./settleFuture.js";
export { prepareWriteOption, writeOption, writeOptionSync } from "./writeOption.js";
export type { WriteOptionErrorType, WriteOptionParameters } from "./writeOption.js";
export { buyOption, buyOptionSync, prepareBuyOption } from "./buyOption.js";
export type { BuyOptionErrorType, BuyOptionParameters, BuyOptionReturnType } from "./buyOption.js";
export { exerciseOption, exerciseOptionSync, prepareExerciseOption } from "./exerciseOption.js";
export type { ExerciseOptionErrorType, ExerciseOptionParameters, ExerciseOptionReturnType } from "./exerciseOption.js";
export { prepareTransferOption, transferOption, transferOptionSync } from "./transferOption.js";
export type { TransferOptionErrorType, TransferOptionParameters } from "./transferOption.js";
export { cancelListing, cancelListingSync, prepareCancelListing } from "./cancelListing.js";
export type { CancelListingErrorType, CancelListingParameters } from "./cancelListing.js";
export { expireListing, expireListingSync, prepareExpireListing } from "./expireListing.js";
export type { ExpireListingErrorType, ExpireListingParameters } from "./expireListing.js";
export { getListing } from "./getListing.js";
export type { GetListingErrorType, GetListingParameters, GetListingReturnType } from "./getListing.js";
export {
  getClaimable,
  prepareWithdrawClaimable,
  withdrawClaimable,
  withdrawClaimableSync,
} from "./withdrawClaimable.js";
export type {
  GetClaimableParameters,
  WithdrawClaimableErrorType,
  WithdrawClaimableParameters,
} from "./withdrawClaimable.js";

// --- bridge: quote, send, status, and delivering a queued message ---
export { quoteBridgeTransfer } from "./quoteBridgeTransfer.js";
export type {
  BridgeFee,
  QuoteBridgeTransferErrorType,
  QuoteBridgeTransferParameters,
  QuoteBridgeTransferReturnType,
} from "./quoteBridgeTransfer.js";
export { prepareSendBridgeTransfer, sendBridgeTransfer, sendBridgeTransferSync } from "./sendBridgeTransfer.js";
export type {
  SendBridgeTransferErrorType,
  SendBridgeTransferParameters,
  SendBridgeTransferReturnType,
} from "./sendBridgeTransfer.js";
export { getBridgeMessage, getBridgeTransferStatus } from "./getBridgeTransferStatus.js";
export type {
  BridgeMessage,
  BridgeTransferStatus,
  GetBridgeMessageErrorType,
  GetBridgeMessageParameters,
  GetBridgeTransferStatusParameters,
  GetBridgeTransferStatusReturnType,
} from "./getBridgeTransferStatus.js";
export { executeQueuedMessage, executeQueuedMessageSync, prepareExecuteQueuedMessage } from "./executeQueuedMessage.js";
export type { ExecuteQueuedMessageErrorType, ExecuteQueuedMessageParameters } from "./executeQueuedMessage.js";

// --- providers: registration, collateral, minting, retirement, and the account read ---
export { prepareRegisterProvider, registerProvider, registerProviderSync } from "./registerProvider.js";
export type { ProviderProfile, RegisterProviderErrorType, RegisterProviderParameters } from "./registerProvider.js";
export { approveCollateral, approveCollateralSync, prepareApproveCollateral } from "./approveCollateral.js";
export type { ApproveCollateralErrorType, ApproveCollateralParameters } from "./approveCollateral.js";
export { depositCollateral, depositCollateralSync, prepareDepositCollateral } from "./depositCollateral.js";
export type { DepositCollateralErrorType, DepositCollateralParameters } from "./depositCollateral.js";
export { prepareWithdrawCollateral, withdrawCollateral, withdrawCollateralSync } from "./withdrawCollateral.js";
export type { WithdrawCollateralErrorType, WithdrawCollateralParameters } from "./withdrawCollateral.js";
export { prepareVerifyAndMintSSTB, verifyAndMintSSTB, verifyAndMintSSTBSync } from "./verifyAndMintSSTB.js";
export type {
  VerifyAndMintSSTBErrorType,
  VerifyAndMintSSTBParameters,
  VerifyAndMintSSTBReturnType,
} from "./verifyAndMintSSTB.js";
export { approveRetirement, approveRetirementSync, prepareApproveRetirement } from "./approveRetirement.js";
export type { ApproveRetirementErrorType, ApproveRetirementParameters } from "./approveRetirement.js";
export { prepareRetireCapacity, retireCapacity, retireCapacitySync } from "./retireCapacity.js";
export type { RetireCapacityErrorType, RetireCapacityParameters } from "./retireCapacity.js";
export { getProviderAccount } from "./getProviderAccount.js";
export type {
  GetProviderAccountErrorType,
  GetProviderAccountParameters,
  GetProviderAccountReturnType,
} from "./getProviderAccount.js";

// --- governance: delegate, propose, vote, queue, execute, and a proposal's state ---
export { delegateVotes, delegateVotesSync, prepareDelegateVotes } from "./delegateVotes.js";
export type { DelegateVotesErrorType, DelegateVotesParameters } from "./delegateVotes.js";
export { preparePropose, propose, proposeSync } from "./propose.js";
export type { ProposeErrorType, ProposeParameters } from "./propose.js";
export { castVote, castVoteSync, prepareCastVote } from "./castVote.js";
export type { CastVoteErrorType, CastVoteParameters } from "./castVote.js";
export { prepareQueueProposal, queueProposal, queueProposalSync } from "./queueProposal.js";
export type { QueueProposalErrorType, QueueProposalParameters } from "./queueProposal.js";
export { executeProposal, executeProposalSync, prepareExecuteProposal } from "./executeProposal.js";
export type { ExecuteProposalErrorType, ExecuteProposalParameters } from "./executeProposal.js";
export { getProposalState } from "./getProposalState.js";
export type {
  GetProposalStateErrorType,
  GetProposalStateParameters,
  GetProposalStateReturnType,
} from "./getProposalState.js";
