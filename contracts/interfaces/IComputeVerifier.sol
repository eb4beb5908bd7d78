// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Hardware metadata and benchmark scores of a verified compute unit.
/// @dev The API's `metadata` (cpu_cores, ram_gb, storage_gb, network_mbps) and
/// `benchmark_results` (cpu_score, memory_score, storage_score, network_score). 224 bits, so that
/// the CU token can keep a whole record in three slots; scores are bounded by 16,777,215.
struct ComputeSpecs {
    uint32 cpuCores;
    uint32 ramGb;
    uint32 storageGb;
    uint32 networkMbps;
    uint24 cpuScore;
    uint24 memoryScore;
    uint24 storageScore;
    uint24 networkScore;
}

/// @notice What a verifier vouches for: one compute unit of a provider.
/// @param cuHash Identity of the verified unit (hash of the benchmark report); verified once.
/// @param cuValue Capacity in sSTB base units (18 decimals) that the unit is worth.
/// @param specs Hardware metadata and benchmark scores.
struct VerifiedCompute {
    bytes32 cuHash;
    uint256 cuValue;
    ComputeSpecs specs;
}

/// @title IComputeVerifier
/// @notice Verifies a provider's proof of compute capacity for the minting agent. The default
/// implementation checks k-of-n EIP-712 attestations; a zk verifier can sit behind the same
/// interface.
interface IComputeVerifier {
    /// @notice Verifies `proof` for `provider`.
    /// @dev Reverts on any invalid proof. Only the verifier's consumer (the minting agent) may call.
    /// A verifier need not remember what it verified: the CU token refuses a `cuHash` it has
    /// recorded, so a unit backs sSTB once whatever verifier is installed.
    /// @param provider The account that must be the subject of the proof.
    /// @param proof Implementation-specific encoding of the proof.
    /// @return verified The compute unit the proof vouches for.
    function verify(address provider, bytes calldata proof) external returns (VerifiedCompute memory verified);

    /// @notice The method this verifier implements, as the API's `verification_method` shows it.
    function verificationMethod() external view returns (string memory);
}
