// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ICUToken} from "../../contracts/interfaces/ICUToken.sol";
import {IComputeVerifier} from "../../contracts/interfaces/IComputeVerifier.sol";
import {Roles} from "../../contracts/libraries/Roles.sol";
import {AttestationVerifier} from "../../contracts/verification/AttestationVerifier.sol";
import {ProtocolSetup} from "./utils/ProtocolSetup.sol";

/// @title ComputeUnitUniquenessTest
/// @notice Issue 9, property 5: a compute unit backs sSTB at most once, whatever verifier is
/// installed. The uniqueness of a `cuHash` is the CU token's, not the replaceable verifier's.
contract ComputeUnitUniquenessTest is ProtocolSetup {
    address internal provider = makeAddr("provider");

    function setUp() public {
        _deployProtocol();
        _registerActive(provider);
    }

    function _mint(bytes32 cuHash, uint256 cuValue) internal returns (uint256 cuId) {
        uint256 needed = registry.requiredCollateral(registry.accountOf(provider).availableCU + cuValue);
        bytes memory proof = _proof(provider, cuHash, cuValue);
        vm.prank(provider);
        cuId = agent.verifyAndMintSSTB(proof, needed, 7 days);
    }

    /// @notice A second mint of the same unit reverts and changes nothing, with any value.
    function testFuzz_aUnitBacksSSTBOnce(bytes32 cuHash, uint256 first, uint256 second) public {
        first = bound(first, 1, 1e24);
        second = bound(second, 1, 1e24);
        uint256 cuId = _mint(cuHash, first);
        assertEq(cuToken.unitOfHash(cuHash), cuId);
        uint256 supply = sstb.totalSupply();

        uint256 needed = registry.requiredCollateral(registry.accountOf(provider).availableCU + second);
        bytes memory proof = _proof(provider, cuHash, second);
        vm.prank(provider);
        vm.expectRevert(abi.encodeWithSelector(ICUToken.CUTokenDuplicateUnit.selector, cuHash, cuId));
        agent.verifyAndMintSSTB(proof, needed, 7 days);
        assertEq(sstb.totalSupply(), supply);
        assertEq(cuToken.totalComputeUnits(), 1);
    }

    /// @notice Replacing the verifier (a fresh one that has seen nothing) does not reopen a unit.
    function testFuzz_aUnitBacksSSTBOnceAcrossVerifiers(bytes32 cuHash) public {
        uint256 cuId = _mint(cuHash, 10e18);
        address[] memory keys = new address[](3);
        for (uint256 i = 0; i < 3; ++i) keys[i] = verifier.verifiers()[i];
        AttestationVerifier fresh = new AttestationVerifier(admin, keys, 2);
        vm.startPrank(admin);
        fresh.grantRole(Roles.CONSUMER_ROLE, address(agent));
        agent.setVerifier(IComputeVerifier(address(fresh)));
        vm.stopPrank();
        verifier = fresh; // sign for the new verifier's domain

        bytes memory proof = _proof(provider, cuHash, 10e18);
        uint256 needed = registry.requiredCollateral(registry.accountOf(provider).availableCU + 10e18);
        vm.prank(provider);
        vm.expectRevert(abi.encodeWithSelector(ICUToken.CUTokenDuplicateUnit.selector, cuHash, cuId));
        agent.verifyAndMintSSTB(proof, needed, 7 days);

        // a new unit still mints through the new verifier
        assertEq(_mint(keccak256(abi.encode(cuHash)), 10e18), cuId + 1);
    }
}
