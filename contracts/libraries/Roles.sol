// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Roles
/// @notice The protocol's access-control roles in one place, so every contract, deployment
/// module and test names a role the same way. `DEFAULT_ADMIN_ROLE` (OpenZeppelin) administers
/// all of them and, like every parameter and upgrade role, ends up with the timelock.
library Roles {
    /// @notice Sets protocol parameters (fees, ratios, prices, verifier sets). Held by governance.
    bytes32 internal constant GOVERNANCE_ROLE = keccak256("GOVERNANCE_ROLE");
    /// @notice Authorizes UUPS upgrades. Held by governance.
    bytes32 internal constant UPGRADER_ROLE = keccak256("UPGRADER_ROLE");
    /// @notice Mints tokens (sSTB: the minting agent and the bridge; CU token: the minting agent).
    bytes32 internal constant MINTER_ROLE = keccak256("MINTER_ROLE");
    /// @notice Burns tokens it has been approved for (sSTB: redemption manager, minting agent, bridge).
    bytes32 internal constant BURNER_ROLE = keccak256("BURNER_ROLE");
    /// @notice The minting agent's hooks into the provider registry.
    bytes32 internal constant MINTING_AGENT_ROLE = keccak256("MINTING_AGENT_ROLE");
    /// @notice The redemption manager's hooks into the provider registry.
    bytes32 internal constant REDEMPTION_MANAGER_ROLE = keccak256("REDEMPTION_MANAGER_ROLE");
    /// @notice Approves pending providers after off-chain due diligence.
    bytes32 internal constant APPROVER_ROLE = keccak256("APPROVER_ROLE");
    /// @notice Resolves disputes and may suspend providers.
    bytes32 internal constant ARBITRATOR_ROLE = keccak256("ARBITRATOR_ROLE");
    /// @notice Pause guardian: may pause redemption initiation and minting in an emergency (a
    /// multisig). Only governance unpauses.
    bytes32 internal constant GUARDIAN_ROLE = keccak256("GUARDIAN_ROLE");
    /// @notice May consume attestations in a compute verifier (the minting agent).
    bytes32 internal constant CONSUMER_ROLE = keccak256("CONSUMER_ROLE");
}
