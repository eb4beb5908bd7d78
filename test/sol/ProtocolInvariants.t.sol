// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";

import {ProviderRegistry} from "../../contracts/core/ProviderRegistry.sol";
import {IProviderRegistry} from "../../contracts/interfaces/IProviderRegistry.sol";
import {SSTB} from "../../contracts/tokens/SSTB.sol";
import {ProtocolSetup} from "./utils/ProtocolSetup.sol";

/// @title ProtocolHandler
/// @notice Drives random sequences of mint, retire, deposit, withdraw, sSTB transfers and time
/// through the real contracts, as the three providers would.
contract ProtocolHandler is ProtocolSetup {
    address[3] public providers;
    uint256 public mints;
    uint256 public retirements;
    uint256 public withdrawals;
    uint256 private _nextUnit;

    constructor() {
        _deployProtocol();
        providers = [makeAddr("provider-0"), makeAddr("provider-1"), makeAddr("provider-2")];
        for (uint256 i = 0; i < 3; ++i) _registerActive(providers[i]);
    }

    function mint(uint256 seed, uint256 cuValue, uint256 extra, uint256 period) external {
        address provider = providers[seed % 3];
        cuValue = bound(cuValue, 1, 1e24);
        period = bound(period, 7 days, 365 days);
        IProviderRegistry.ProviderAccount memory account = registry.accountOf(provider);
        uint256 needed = registry.requiredCollateral(account.availableCU + cuValue);
        uint256 shortfall = needed > account.freeCollateral ? needed - account.freeCollateral : 0;
        uint256 amount = shortfall + bound(extra, 0, 1e12);
        bytes memory proof = _proof(provider, keccak256(abi.encode("unit", ++_nextUnit)), cuValue);
        vm.prank(provider);
        agent.verifyAndMintSSTB(proof, amount, period);
        ++mints;
    }

    function retire(uint256 seed, uint256 amount) external {
        address provider = providers[seed % 3];
        uint256 available = registry.accountOf(provider).availableCU;
        uint256 balance = sstb.balanceOf(provider);
        uint256 most = available < balance ? available : balance;
        if (most == 0) return;
        amount = bound(amount, 1, most);
        uint40 stakedUntil = registry.accountOf(provider).stakedUntil;
        if (stakedUntil > block.timestamp) vm.warp(stakedUntil);
        vm.prank(provider);
        agent.retireCapacity(amount);
        ++retirements;
    }

    function deposit(uint256 seed, uint256 amount) external {
        address provider = providers[seed % 3];
        amount = bound(amount, 1, 1e15);
        vm.prank(provider);
        registry.depositCollateral(amount);
    }

    function withdraw(uint256 seed, uint256 amount) external {
        address provider = providers[seed % 3];
        uint256 excess = registry.excessCollateral(provider);
        if (excess == 0) return;
        amount = bound(amount, 1, excess);
        uint40 stakedUntil = registry.accountOf(provider).stakedUntil;
        if (stakedUntil > block.timestamp) vm.warp(stakedUntil);
        vm.prank(provider);
        registry.withdrawCollateral(amount);
        ++withdrawals;
    }

    function transferSSTB(uint256 fromSeed, uint256 toSeed, uint256 amount) external {
        address from = providers[fromSeed % 3];
        address to = providers[toSeed % 3];
        uint256 balance = sstb.balanceOf(from);
        if (balance == 0) return;
        amount = bound(amount, 1, balance);
        vm.prank(from);
        sstb.transfer(to, amount);
    }

    function passTime(uint256 seconds_) external {
        vm.warp(block.timestamp + bound(seconds_, 1, 60 days));
    }

    /// @notice The registry under test.
    function registryContract() external view returns (ProviderRegistry) {
        return registry;
    }

    /// @notice The sSTB token under test.
    function sstbContract() external view returns (SSTB) {
        return sstb;
    }
}

/// @title ProtocolInvariantsTest
/// @notice DESIGN.md section 4, invariants 1-3, over random sequences of handler calls.
contract ProtocolInvariantsTest is Test {
    ProtocolHandler internal handler;
    ProviderRegistry internal registry;

    function setUp() public {
        handler = new ProtocolHandler();
        registry = handler.registryContract();
        bytes4[] memory selectors = new bytes4[](6);
        selectors[0] = ProtocolHandler.mint.selector;
        selectors[1] = ProtocolHandler.retire.selector;
        selectors[2] = ProtocolHandler.deposit.selector;
        selectors[3] = ProtocolHandler.withdraw.selector;
        selectors[4] = ProtocolHandler.transferSSTB.selector;
        selectors[5] = ProtocolHandler.passTime.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
        targetContract(address(handler));
    }

    /// @notice 1. sSTB supply equals the sum of available capacity (no bridge on this chain yet).
    function invariant_supplyEqualsAvailableCapacity() public view {
        uint256 sum;
        for (uint256 i = 0; i < 3; ++i) sum += registry.accountOf(handler.providers(i)).availableCU;
        assertEq(handler.sstbContract().totalSupply(), sum);
    }

    /// @notice 2. The vault's balance is exactly the providers' free plus locked collateral.
    function invariant_vaultBalanceEqualsFreePlusLocked() public view {
        uint256 sum;
        for (uint256 i = 0; i < 3; ++i) {
            IProviderRegistry.ProviderAccount memory account = registry.accountOf(handler.providers(i));
            sum += account.freeCollateral + account.lockedCollateral;
        }
        assertEq(registry.collateralToken().balanceOf(address(registry)), sum);
    }

    /// @notice 3. Every provider's free collateral covers ratio x price x available capacity.
    function invariant_everyProviderFullyCollateralized() public view {
        for (uint256 i = 0; i < 3; ++i) {
            IProviderRegistry.ProviderAccount memory account = registry.accountOf(handler.providers(i));
            assertGe(account.freeCollateral, registry.requiredCollateral(account.availableCU));
            assertLe(account.availableCU, account.totalCU);
        }
    }

    /// @notice The sequences do real work: most calls succeed (not all silently revert).
    function afterInvariant() external view {
        assertGt(handler.mints(), 0);
    }
}
