// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

import {MintingAgent} from "../../../contracts/core/MintingAgent.sol";
import {ProviderRegistry} from "../../../contracts/core/ProviderRegistry.sol";
import {RedemptionManager} from "../../../contracts/core/RedemptionManager.sol";
import {RedemptionViews} from "../../../contracts/core/RedemptionViews.sol";
import {ICUToken} from "../../../contracts/interfaces/ICUToken.sol";
import {ComputeSpecs, IComputeVerifier} from "../../../contracts/interfaces/IComputeVerifier.sol";
import {IProviderRegistry} from "../../../contracts/interfaces/IProviderRegistry.sol";
import {IRedemptionManager} from "../../../contracts/interfaces/IRedemptionManager.sol";
import {ISSTB} from "../../../contracts/interfaces/ISSTB.sol";
import {Roles} from "../../../contracts/libraries/Roles.sol";
import {MockStablecoin} from "../../../contracts/mocks/MockStablecoin.sol";
import {CUToken} from "../../../contracts/tokens/CUToken.sol";
import {SSTB} from "../../../contracts/tokens/SSTB.sol";
import {AttestationVerifier} from "../../../contracts/verification/AttestationVerifier.sol";

/// @title ProtocolSetup
/// @notice Deploys the primary chain's contracts the way `deploy/deploy.ts` does, for
/// Solidity tests, and signs attestations with known verifier keys.
abstract contract ProtocolSetup is Test {
    uint256 internal constant COLLATERAL_PER_CU = 1e6;

    MockStablecoin internal collateral;
    CUToken internal cuToken;
    SSTB internal sstb;
    ProviderRegistry internal registry;
    AttestationVerifier internal verifier;
    MintingAgent internal agent;
    RedemptionManager internal manager;
    /// @dev The manager's read contract (issue 23).
    RedemptionViews internal views;

    uint256[] internal verifierKeys;
    address internal admin = makeAddr("admin");
    address internal approver = makeAddr("approver");
    address internal arbitrator = makeAddr("arbitrator");
    address internal treasury = makeAddr("treasury");

    function _deployProtocol() internal {
        verifierKeys = [uint256(0xA11CE), uint256(0xB0B), uint256(0xCA201)];
        address[] memory verifiers = new address[](3);
        for (uint256 i = 0; i < 3; ++i) verifiers[i] = vm.addr(verifierKeys[i]);

        collateral = new MockStablecoin();
        cuToken = new CUToken(admin, "");
        sstb = SSTB(address(new ERC1967Proxy(address(new SSTB()), abi.encodeCall(SSTB.initialize, (admin)))));
        registry = ProviderRegistry(
            address(
                new ERC1967Proxy(
                    address(new ProviderRegistry()),
                    abi.encodeCall(ProviderRegistry.initialize, (admin, IERC20(address(collateral)), COLLATERAL_PER_CU))
                )
            )
        );
        verifier = new AttestationVerifier(admin, verifiers, 2);
        MintingAgent implementation = new MintingAgent(
            IProviderRegistry(address(registry)),
            ICUToken(address(cuToken)),
            ISSTB(address(sstb))
        );
        agent = MintingAgent(
            address(
                new ERC1967Proxy(
                    address(implementation),
                    abi.encodeCall(MintingAgent.initialize, (admin, IComputeVerifier(address(verifier))))
                )
            )
        );

        manager = _deployRedemptionManager();
        views = new RedemptionViews(IRedemptionManager(address(manager)));

        vm.startPrank(admin);
        sstb.grantRole(Roles.BURNER_ROLE, address(manager));
        registry.grantRole(Roles.REDEMPTION_MANAGER_ROLE, address(manager));
        registry.grantRole(Roles.ARBITRATOR_ROLE, arbitrator);
        manager.grantRole(Roles.ARBITRATOR_ROLE, arbitrator);
        cuToken.grantRole(Roles.MINTER_ROLE, address(agent));
        sstb.grantRole(Roles.MINTER_ROLE, address(agent));
        sstb.grantRole(Roles.BURNER_ROLE, address(agent));
        registry.grantRole(Roles.MINTING_AGENT_ROLE, address(agent));
        registry.grantRole(Roles.APPROVER_ROLE, approver);
        verifier.grantRole(Roles.CONSUMER_ROLE, address(agent));
        vm.stopPrank();
    }

    function _deployRedemptionManager() internal returns (RedemptionManager) {
        RedemptionManager implementation = new RedemptionManager(
            IProviderRegistry(address(registry)),
            ISSTB(address(sstb))
        );
        return
            RedemptionManager(
                address(
                    new ERC1967Proxy(
                        address(implementation),
                        abi.encodeCall(RedemptionManager.initialize, (admin, treasury))
                    )
                )
            );
    }

    function _specs() internal pure returns (ComputeSpecs memory) {
        return ComputeSpecs(64, 256, 4096, 10_000, 9_100, 8_800, 7_600, 9_500);
    }

    function _attestation(
        address provider,
        bytes32 cuHash,
        uint256 cuValue
    ) internal view returns (AttestationVerifier.Attestation memory) {
        return
            AttestationVerifier.Attestation(provider, cuHash, cuValue, _specs(), uint64(block.timestamp + 1 days), 1);
    }

    /// @dev Signs with the given keys, ordering signatures by ascending signer address.
    function _sign(
        AttestationVerifier.Attestation memory attestation,
        uint256[] memory keys
    ) internal view returns (bytes[] memory signatures) {
        bytes32 digest = verifier.hashAttestation(attestation);
        uint256[] memory sorted = _sortByAddress(keys);
        signatures = new bytes[](sorted.length);
        for (uint256 i = 0; i < sorted.length; ++i) {
            (uint8 v, bytes32 r, bytes32 s) = vm.sign(sorted[i], digest);
            signatures[i] = abi.encodePacked(r, s, v);
        }
    }

    function _proof(address provider, bytes32 cuHash, uint256 cuValue) internal view returns (bytes memory) {
        uint256[] memory keys = new uint256[](2);
        keys[0] = verifierKeys[0];
        keys[1] = verifierKeys[1];
        AttestationVerifier.Attestation memory attestation = _attestation(provider, cuHash, cuValue);
        return abi.encode(attestation, _sign(attestation, keys));
    }

    function _sortByAddress(uint256[] memory keys) internal pure returns (uint256[] memory) {
        for (uint256 i = 1; i < keys.length; ++i) {
            for (uint256 j = i; j > 0 && vm.addr(keys[j]) < vm.addr(keys[j - 1]); --j) {
                (keys[j], keys[j - 1]) = (keys[j - 1], keys[j]);
            }
        }
        return keys;
    }

    function _profile(string memory name) internal pure returns (IProviderRegistry.ProviderProfile memory) {
        return IProviderRegistry.ProviderProfile(name, "DE", "eu-central", "", "", "EPYC", 64, 256, 4096, 10_000);
    }

    function _registerActive(address provider) internal {
        vm.prank(provider);
        registry.register(_profile("provider"), IProviderRegistry.Tier.Standard);
        bytes32 reviewed = registry.hashReviewedProfile(_profile("provider"), IProviderRegistry.Tier.Standard);
        vm.prank(approver);
        registry.approveProvider(provider, reviewed);
        collateral.mint(provider, 1e30);
        vm.startPrank(provider);
        collateral.approve(address(agent), type(uint256).max);
        collateral.approve(address(registry), type(uint256).max);
        sstb.approve(address(agent), type(uint256).max);
        vm.stopPrank();
    }
}
