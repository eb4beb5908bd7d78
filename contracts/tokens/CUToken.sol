// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";

import {ICUToken} from "../interfaces/ICUToken.sol";
import {ComputeSpecs, VerifiedCompute} from "../interfaces/IComputeVerifier.sol";
import {Roles} from "../libraries/Roles.sol";

/// @title CUToken
/// @notice The compute-unit token (ERC-1155). A CU token exists only inside the minting agent's
/// `verifyAndMintSSTB` call: it is minted to the provider and burned at once in exchange for sSTB.
/// It cannot be transferred or approved. What outlives it is the unit's record (hash, value,
/// provider, verification time, hardware and benchmarks), which the API's `/cu` routes serve.
/// @dev Not upgradeable: the records are append-only history, and the minting agent that writes
/// them is replaceable through `MINTER_ROLE`.
contract CUToken is ERC1155, AccessControl, ICUToken {
    /// @dev A record in three slots: cuHash | provider, cuValue | verifiedAt, specs (flattened,
    /// because a nested struct would start a fourth slot). Each fresh slot costs 22,100 gas on
    /// every mint, so the packing is worth its narrower types.
    struct PackedUnit {
        bytes32 cuHash;
        address provider;
        uint96 cuValue;
        uint32 verifiedAt;
        uint32 cpuCores;
        uint32 ramGb;
        uint32 storageGb;
        uint32 networkMbps;
        uint24 cpuScore;
        uint24 memoryScore;
        uint24 storageScore;
        uint24 networkScore;
    }

    mapping(uint256 cuId => PackedUnit) private _units;
    uint256 private _lastId;
    /// @dev The uniqueness of a compute unit lives here, beside its record, and not in the
    /// replaceable verifier: whatever verifier governance installs, a `cuHash` backs sSTB once.
    mapping(bytes32 cuHash => uint256 cuId) private _unitOfHash;

    /// @notice Deploys the token with no units.
    /// @param admin Receives `DEFAULT_ADMIN_ROLE` (handed to the timelock after deployment).
    /// @param uri_ ERC-1155 metadata URI template (`{id}` substituted by clients).
    constructor(address admin, string memory uri_) ERC1155(uri_) {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    /// @inheritdoc ICUToken
    function mint(
        address provider,
        VerifiedCompute calldata verified
    ) external onlyRole(Roles.MINTER_ROLE) returns (uint256 cuId) {
        uint256 cuValue = verified.cuValue;
        if (cuValue == 0) revert CUTokenZeroValue();
        if (cuValue > type(uint96).max) revert CUTokenValueTooLarge(cuValue);
        bytes32 cuHash = verified.cuHash;
        uint256 existing = _unitOfHash[cuHash];
        if (existing != 0) revert CUTokenDuplicateUnit(cuHash, existing);
        cuId = ++_lastId;
        _unitOfHash[cuHash] = cuId;
        ComputeSpecs calldata specs = verified.specs;
        _units[cuId] = PackedUnit({
            cuHash: cuHash,
            provider: provider,
            cuValue: uint96(cuValue),
            verifiedAt: uint32(block.timestamp),
            cpuCores: specs.cpuCores,
            ramGb: specs.ramGb,
            storageGb: specs.storageGb,
            networkMbps: specs.networkMbps,
            cpuScore: specs.cpuScore,
            memoryScore: specs.memoryScore,
            storageScore: specs.storageScore,
            networkScore: specs.networkScore
        });
        emit ComputeUnitVerified(cuId, provider, cuHash, cuValue, specs, uint64(block.timestamp));
        // _update, not _mint: no onERC1155Received call into the provider, since the token never
        // stays with it. TransferSingle is still emitted.
        (uint256[] memory ids, uint256[] memory values) = _singleton(cuId, cuValue);
        _update(address(0), provider, ids, values);
    }

    /// @inheritdoc ICUToken
    function burn(address provider, uint256 cuId, uint256 amount) external onlyRole(Roles.MINTER_ROLE) {
        _burn(provider, cuId, amount);
    }

    /// @inheritdoc ICUToken
    function computeUnit(uint256 cuId) external view returns (ComputeUnit memory) {
        if (cuId == 0 || cuId > _lastId) revert CUTokenUnknownUnit(cuId);
        PackedUnit storage unit = _units[cuId];
        return
            ComputeUnit({
                cuHash: unit.cuHash,
                provider: unit.provider,
                verifiedAt: unit.verifiedAt,
                cuValue: unit.cuValue,
                specs: ComputeSpecs({
                    cpuCores: unit.cpuCores,
                    ramGb: unit.ramGb,
                    storageGb: unit.storageGb,
                    networkMbps: unit.networkMbps,
                    cpuScore: unit.cpuScore,
                    memoryScore: unit.memoryScore,
                    storageScore: unit.storageScore,
                    networkScore: unit.networkScore
                })
            });
    }

    /// @inheritdoc ICUToken
    function unitOfHash(bytes32 cuHash) external view returns (uint256) {
        return _unitOfHash[cuHash];
    }

    /// @inheritdoc ICUToken
    function totalComputeUnits() external view returns (uint256) {
        return _lastId;
    }

    /// @notice Always reverts: CU tokens cannot be approved.
    function setApprovalForAll(address, bool) public pure override {
        revert CUTokenApprovalsDisabled();
    }

    /// @notice Always reverts: CU tokens cannot be transferred.
    function safeTransferFrom(address, address, uint256, uint256, bytes memory) public pure override {
        revert CUTokenNonTransferable();
    }

    /// @notice Always reverts: CU tokens cannot be transferred.
    function safeBatchTransferFrom(
        address,
        address,
        uint256[] memory,
        uint256[] memory,
        bytes memory
    ) public pure override {
        revert CUTokenNonTransferable();
    }

    /// @inheritdoc ERC1155
    function supportsInterface(bytes4 interfaceId) public view override(ERC1155, AccessControl) returns (bool) {
        return super.supportsInterface(interfaceId);
    }

    /// @dev Second line of defence: whatever path reaches `_update`, only mints and burns pass.
    function _update(address from, address to, uint256[] memory ids, uint256[] memory values) internal override {
        if (from != address(0) && to != address(0)) revert CUTokenNonTransferable();
        super._update(from, to, ids, values);
    }

    function _singleton(
        uint256 id,
        uint256 value
    ) private pure returns (uint256[] memory ids, uint256[] memory values) {
        ids = new uint256[](1);
        values = new uint256[](1);
        ids[0] = id;
        values[0] = value;
    }
}
