// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {EnumerableSet} from "@openzeppelin/contracts/utils/structs/EnumerableSet.sol";

import {ComputeSpecs, IComputeVerifier, VerifiedCompute} from "../interfaces/IComputeVerifier.sol";
import {Roles} from "../libraries/Roles.sol";

/// @title AttestationVerifier
/// @notice Verifies compute capacity by k-of-n EIP-712 attestations from a governance-managed set
/// of verifier keys. Verifiers run the benchmarks off-chain (`POST /verification/submit`) and sign
/// what they measured; the minting agent consumes the attestation here.
/// @dev A proof is `abi.encode(Attestation, bytes[] signatures)` with signatures ordered by
/// strictly ascending signer address, which makes duplicate signers detectable in one pass.
/// The verifier keeps no record of what it verified: that a compute unit (`cuHash`) backs sSTB
/// once is the CU token's rule, so it holds whatever verifier governance installs (a second copy
/// here would cost every mint a storage slot and protect nothing more).
/// Attestations are bound to this chain and this contract by the EIP-712 domain.
contract AttestationVerifier is EIP712, AccessControl, IComputeVerifier {
    using EnumerableSet for EnumerableSet.AddressSet;

    /// @notice What the verifiers sign.
    /// @dev Fields follow the EIP-712 type's order; the struct lives in calldata and memory only.
    // solhint-disable-next-line gas-struct-packing
    struct Attestation {
        address provider;
        bytes32 cuHash;
        uint256 cuValue;
        ComputeSpecs specs;
        uint64 expiry;
        uint256 nonce;
    }

    bytes32 private constant SPECS_TYPEHASH = keccak256(
        "ComputeSpecs(uint32 cpuCores,uint32 ramGb,uint32 storageGb,uint32 networkMbps,"
        "uint24 cpuScore,uint24 memoryScore,uint24 storageScore,uint24 networkScore)"
    );

    /// @notice EIP-712 type hash of {Attestation}.
    bytes32 public constant ATTESTATION_TYPEHASH = keccak256(
        "Attestation(address provider,bytes32 cuHash,uint256 cuValue,ComputeSpecs specs,uint64 expiry,uint256 nonce)"
        "ComputeSpecs(uint32 cpuCores,uint32 ramGb,uint32 storageGb,uint32 networkMbps,"
        "uint24 cpuScore,uint24 memoryScore,uint24 storageScore,uint24 networkScore)"
    );

    EnumerableSet.AddressSet private _verifiers;
    uint256 private _threshold;

    /// @notice The attestation names another provider than the caller.
    error AttestationWrongProvider(address expected, address attested);
    /// @notice The attestation's expiry has passed.
    error AttestationExpired(uint256 expiry, uint256 now_);
    /// @notice Fewer signatures than the threshold.
    error AttestationUnderSigned(uint256 signatures, uint256 threshold);
    /// @notice A signature is malformed.
    error AttestationInvalidSignature(uint256 index);
    /// @notice A signer is not in the verifier set.
    error AttestationUnknownSigner(address signer);
    /// @notice The same signer signed twice.
    error AttestationDuplicateSigner(address signer);
    /// @notice Signatures are not ordered by ascending signer address.
    error AttestationSignersNotAscending(address previous, address signer);
    /// @notice The threshold must be at least 1 and at most the size of the verifier set.
    error VerifierInvalidThreshold(uint256 threshold, uint256 verifiers);
    /// @notice The account is already a verifier.
    error VerifierAlreadyAdded(address verifier);
    /// @notice The account is not a verifier.
    error VerifierNotFound(address verifier);
    /// @notice The zero address cannot be a verifier.
    error VerifierZeroAddress();

    /// @notice A verifier key joined the set.
    event VerifierAdded(address indexed verifier);
    /// @notice A verifier key left the set.
    event VerifierRemoved(address indexed verifier);
    /// @notice The number of signatures required changed.
    event ThresholdUpdated(uint256 previous, uint256 current);
    /// @notice An attestation was accepted for a mint (the mint itself is refused if the unit
    /// already backs sSTB).
    event AttestationConsumed(address indexed provider, bytes32 indexed cuHash, uint256 nonce, uint256 signatures);

    /// @notice Deploys the verifier with its initial k-of-n set.
    /// @param admin Receives `DEFAULT_ADMIN_ROLE` and `GOVERNANCE_ROLE` (handed to the timelock).
    /// @param initialVerifiers The initial verifier keys.
    /// @param initialThreshold How many of them must sign (k of n).
    constructor(
        address admin,
        address[] memory initialVerifiers,
        uint256 initialThreshold
    ) EIP712("ComputeAttestationVerifier", "1") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(Roles.GOVERNANCE_ROLE, admin);
        for (uint256 i = 0; i < initialVerifiers.length; ++i) {
            _addVerifier(initialVerifiers[i]);
        }
        _setThreshold(initialThreshold);
    }

    /// @inheritdoc IComputeVerifier
    function verify(
        address provider,
        bytes calldata proof
    ) external onlyRole(Roles.CONSUMER_ROLE) returns (VerifiedCompute memory verified) {
        (Attestation memory attestation, bytes[] memory signatures) = abi.decode(proof, (Attestation, bytes[]));
        if (attestation.provider != provider) revert AttestationWrongProvider(provider, attestation.provider);
        if (block.timestamp > attestation.expiry) revert AttestationExpired(attestation.expiry, block.timestamp);
        _checkSignatures(hashAttestation(attestation), signatures);

        emit AttestationConsumed(provider, attestation.cuHash, attestation.nonce, signatures.length);
        verified = VerifiedCompute({
            cuHash: attestation.cuHash,
            cuValue: attestation.cuValue,
            specs: attestation.specs
        });
    }

    /// @inheritdoc IComputeVerifier
    function verificationMethod() external pure returns (string memory) {
        return "attestation";
    }

    /// @notice Adds a verifier key (governance).
    function addVerifier(address verifier) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _addVerifier(verifier);
    }

    /// @notice Removes a verifier key (governance); the threshold must stay reachable.
    function removeVerifier(address verifier) external onlyRole(Roles.GOVERNANCE_ROLE) {
        if (!_verifiers.remove(verifier)) revert VerifierNotFound(verifier);
        if (_threshold > _verifiers.length()) revert VerifierInvalidThreshold(_threshold, _verifiers.length());
        emit VerifierRemoved(verifier);
    }

    /// @notice Sets how many verifier signatures an attestation needs (governance).
    function setThreshold(uint256 newThreshold) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setThreshold(newThreshold);
    }

    /// @notice The EIP-712 digest the verifiers sign for `attestation`.
    function hashAttestation(Attestation memory attestation) public view returns (bytes32) {
        ComputeSpecs memory s = attestation.specs;
        bytes32 specsHash = keccak256(
            abi.encode(
                SPECS_TYPEHASH,
                s.cpuCores,
                s.ramGb,
                s.storageGb,
                s.networkMbps,
                s.cpuScore,
                s.memoryScore,
                s.storageScore,
                s.networkScore
            )
        );
        return
            _hashTypedDataV4(
                keccak256(
                    abi.encode(
                        ATTESTATION_TYPEHASH,
                        attestation.provider,
                        attestation.cuHash,
                        attestation.cuValue,
                        specsHash,
                        attestation.expiry,
                        attestation.nonce
                    )
                )
            );
    }

    /// @notice The verifier keys.
    function verifiers() external view returns (address[] memory) {
        return _verifiers.values();
    }

    /// @notice Whether `account` is a verifier key.
    function isVerifier(address account) external view returns (bool) {
        return _verifiers.contains(account);
    }

    /// @notice How many verifier signatures an attestation needs.
    function threshold() external view returns (uint256) {
        return _threshold;
    }

    function _checkSignatures(bytes32 digest, bytes[] memory signatures) private view {
        uint256 required = _threshold;
        if (signatures.length < required) revert AttestationUnderSigned(signatures.length, required);
        address previous = address(0);
        for (uint256 i = 0; i < signatures.length; ++i) {
            (address signer, ECDSA.RecoverError err, ) = ECDSA.tryRecover(digest, signatures[i]);
            if (err != ECDSA.RecoverError.NoError) revert AttestationInvalidSignature(i);
            if (!_verifiers.contains(signer)) revert AttestationUnknownSigner(signer);
            if (signer == previous) revert AttestationDuplicateSigner(signer);
            if (signer < previous) revert AttestationSignersNotAscending(previous, signer);
            previous = signer;
        }
    }

    function _addVerifier(address verifier) private {
        if (verifier == address(0)) revert VerifierZeroAddress();
        if (!_verifiers.add(verifier)) revert VerifierAlreadyAdded(verifier);
        emit VerifierAdded(verifier);
    }

    function _setThreshold(uint256 newThreshold) private {
        uint256 count = _verifiers.length();
        if (newThreshold == 0 || newThreshold > count) revert VerifierInvalidThreshold(newThreshold, count);
        emit ThresholdUpdated(_threshold, newThreshold);
        _threshold = newThreshold;
    }
}
