// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AttestationVerifier} from "../../contracts/verification/AttestationVerifier.sol";
import {Roles} from "../../contracts/libraries/Roles.sol";
import {ProtocolSetup} from "./utils/ProtocolSetup.sol";

/// @title AttestationVerifierFuzzTest
/// @notice Fuzzes the attestation checks: any k-of-n subset at or above the threshold verifies,
/// anything below, tampered, expired, replayed or for another provider does not.
contract AttestationVerifierFuzzTest is ProtocolSetup {
    address internal consumer = makeAddr("consumer");
    address internal provider = makeAddr("provider");

    function setUp() public {
        _deployProtocol();
        vm.prank(admin);
        verifier.grantRole(Roles.CONSUMER_ROLE, consumer);
    }

    function _subset(uint256 mask) internal view returns (uint256[] memory keys) {
        uint256 count;
        for (uint256 i = 0; i < 3; ++i) if (mask & (1 << i) != 0) ++count;
        keys = new uint256[](count);
        uint256 j;
        for (uint256 i = 0; i < 3; ++i) if (mask & (1 << i) != 0) keys[j++] = verifierKeys[i];
    }

    function testFuzz_verify_acceptsExactlySubsetsAtThreshold(uint256 mask, uint256 threshold, bytes32 cuHash) public {
        mask = bound(mask, 0, 7);
        threshold = bound(threshold, 1, 3);
        vm.prank(admin);
        verifier.setThreshold(threshold);
        AttestationVerifier.Attestation memory attestation = _attestation(provider, cuHash, 1e18);
        uint256[] memory keys = _subset(mask);
        bytes memory proof = abi.encode(attestation, _sign(attestation, keys));

        vm.prank(consumer);
        if (keys.length < threshold) {
            vm.expectRevert(
                abi.encodeWithSelector(AttestationVerifier.AttestationUnderSigned.selector, keys.length, threshold)
            );
            verifier.verify(provider, proof);
        } else {
            assertEq(verifier.verify(provider, proof).cuHash, cuHash);
        }
    }

    function testFuzz_verify_rejectsAnyTamperedField(uint256 cuValue, uint256 delta, uint8 field) public {
        cuValue = bound(cuValue, 1, type(uint128).max);
        delta = bound(delta, 1, type(uint64).max);
        AttestationVerifier.Attestation memory signed = _attestation(provider, keccak256("unit"), cuValue);
        bytes[] memory signatures = _sign(signed, _subset(3));
        AttestationVerifier.Attestation memory tampered = signed;
        field = uint8(bound(field, 0, 3));
        if (field == 0) tampered.cuValue = cuValue + delta;
        else if (field == 1) tampered.specs.cpuScore += uint24(delta % 1000) + 1;
        else if (field == 2) tampered.nonce += delta;
        else tampered.expiry += uint64(delta % 1 days) + 1;

        vm.prank(consumer);
        // the signers recovered from the tampered digest are not in the verifier set
        try verifier.verify(provider, abi.encode(tampered, signatures)) {
            fail();
        } catch (bytes memory reason) {
            assertEq(bytes4(reason), AttestationVerifier.AttestationUnknownSigner.selector);
        }
    }

    function testFuzz_verify_rejectsExpired(uint256 lateness) public {
        lateness = bound(lateness, 1, 3650 days);
        AttestationVerifier.Attestation memory attestation = _attestation(provider, keccak256("unit"), 1e18);
        bytes memory proof = abi.encode(attestation, _sign(attestation, _subset(3)));
        vm.warp(uint256(attestation.expiry) + lateness);
        vm.prank(consumer);
        vm.expectRevert(
            abi.encodeWithSelector(
                AttestationVerifier.AttestationExpired.selector,
                attestation.expiry,
                uint256(attestation.expiry) + lateness
            )
        );
        verifier.verify(provider, proof);
    }

    function testFuzz_verify_rejectsOtherProvider(address other) public {
        vm.assume(other != provider);
        bytes memory proof = _proof(provider, keccak256("unit"), 1e18);
        vm.prank(consumer);
        vm.expectRevert(abi.encodeWithSelector(AttestationVerifier.AttestationWrongProvider.selector, other, provider));
        verifier.verify(other, proof);
    }

    function testFuzz_verify_rejectsDuplicateSigner(uint256 index) public {
        index = bound(index, 0, 2);
        AttestationVerifier.Attestation memory attestation = _attestation(provider, keccak256("unit"), 1e18);
        uint256[] memory one = new uint256[](1);
        one[0] = verifierKeys[index];
        bytes[] memory signatures = _sign(attestation, one);
        bytes[] memory doubled = new bytes[](2);
        doubled[0] = signatures[0];
        doubled[1] = signatures[0];
        vm.prank(consumer);
        vm.expectRevert(
            abi.encodeWithSelector(
                AttestationVerifier.AttestationDuplicateSigner.selector,
                vm.addr(verifierKeys[index])
            )
        );
        verifier.verify(provider, abi.encode(attestation, doubled));
    }

    function testFuzz_verify_rejectsUnknownSigner(uint256 outsiderKey) public {
        outsiderKey = bound(outsiderKey, 1, 1e70);
        address outsider = vm.addr(outsiderKey);
        vm.assume(!verifier.isVerifier(outsider));
        AttestationVerifier.Attestation memory attestation = _attestation(provider, keccak256("unit"), 1e18);
        uint256[] memory keys = new uint256[](2);
        keys[0] = verifierKeys[0];
        keys[1] = outsiderKey;
        bytes memory proof = abi.encode(attestation, _sign(attestation, keys));
        vm.prank(consumer);
        vm.expectRevert(abi.encodeWithSelector(AttestationVerifier.AttestationUnknownSigner.selector, outsider));
        verifier.verify(provider, proof);
    }
}
