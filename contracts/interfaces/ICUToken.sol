// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ComputeSpecs, VerifiedCompute} from "./IComputeVerifier.sol";

/// @title ICUToken
/// @notice The temporary, non-transferable ERC-1155 compute-unit token and its permanent records.
interface ICUToken {
    /// @notice The permanent record of a compute unit, readable after its token is burned.
    struct ComputeUnit {
        bytes32 cuHash;
        address provider;
        uint64 verifiedAt;
        uint256 cuValue;
        ComputeSpecs specs;
    }

    /// @notice Every transfer path of the CU token is closed: it is minted and burned, never moved.
    error CUTokenNonTransferable();
    /// @notice Approvals are meaningless for a token that cannot be transferred.
    error CUTokenApprovalsDisabled();
    /// @notice No compute unit has this id.
    error CUTokenUnknownUnit(uint256 cuId);
    /// @notice A compute unit must carry a positive value.
    error CUTokenZeroValue();
    /// @notice A compute unit's value must fit 96 bits (79 billion sSTB).
    error CUTokenValueTooLarge(uint256 cuValue);
    /// @notice This compute unit (its `cuHash`) already backs sSTB as unit `cuId`.
    error CUTokenDuplicateUnit(bytes32 cuHash, uint256 cuId);

    /// @notice A compute unit was verified and recorded (webhook `cu.verified`).
    /// @param cuId The new unit's id (sequential from 1).
    /// @param provider The provider whose hardware was verified.
    /// @param cuHash Identity of the verified unit.
    /// @param cuValue Capacity in sSTB base units.
    /// @param specs Hardware metadata and benchmark scores.
    /// @param verifiedAt Block time of the verification.
    event ComputeUnitVerified(
        uint256 indexed cuId,
        address indexed provider,
        bytes32 cuHash,
        uint256 cuValue,
        ComputeSpecs specs,
        uint64 verifiedAt
    );

    /// @notice Records a verified compute unit and mints `cuValue` CU tokens of the new id to `provider`.
    /// @dev Minting agent only. No receiver hook is called: the token is burned in the same call.
    /// Reverts with {CUTokenDuplicateUnit} for a `cuHash` recorded before: a unit backs sSTB at
    /// most once, whichever verifier vouched for it.
    /// @return cuId The new unit's id.
    function mint(address provider, VerifiedCompute calldata verified) external returns (uint256 cuId);

    /// @notice Burns `amount` CU tokens of `cuId` held by `provider`. Minting agent only.
    function burn(address provider, uint256 cuId, uint256 amount) external;

    /// @notice The record of compute unit `cuId`; reverts for an unknown id.
    function computeUnit(uint256 cuId) external view returns (ComputeUnit memory);

    /// @notice The id of the unit recorded for `cuHash`, 0 if none.
    function unitOfHash(bytes32 cuHash) external view returns (uint256 cuId);

    /// @notice Number of compute units ever recorded (also the latest id).
    function totalComputeUnits() external view returns (uint256);
}
