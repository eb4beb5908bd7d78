// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title TokenBucket
/// @notice A token-bucket rate limit: a bucket holds up to `capacity` units and refills at `rate`
/// units per second; a transfer takes its amount out of the bucket or is refused. A disabled bucket
/// limits nothing. The bridge keeps one per token, remote chain and direction.
/// @dev Written for this protocol (not derived from Chainlink's BUSL rate limiter). Two slots: the
/// state that every transfer writes (`tokens`, `lastUpdated`, `enabled`, and `total`, the amount
/// that ever passed, so a bridge's flow totals cost no extra storage write) and the configuration it
/// only reads (`capacity`, `rate`). The refill is computed lazily on each use, never stored ahead.
library TokenBucket {
    /// @notice A bucket: its level at `lastUpdated` and its configuration.
    /// @param tokens Units available at `lastUpdated`, at most `capacity`.
    /// @param lastUpdated Block time of the last consumption or configuration.
    /// @param enabled Whether the bucket limits anything.
    /// @param capacity Most units the bucket holds (the largest single transfer).
    /// @param total Units that ever passed through the bucket, enabled or not.
    /// @param rate Units added per second, up to `capacity`.
    struct Bucket {
        uint96 tokens;
        uint40 lastUpdated;
        bool enabled;
        uint112 total;
        uint128 capacity;
        uint128 rate;
    }

    /// @notice A bucket's configuration as governance sets it (`capacity` at most 2^96 - 1).
    struct Config {
        bool enabled;
        uint128 capacity;
        uint128 rate;
    }

    /// @notice `requested` units exceed the `available` ones; the bucket refills at its rate.
    error TokenBucketExceeded(uint256 available, uint256 requested);
    /// @notice An enabled bucket needs a capacity within (0, 2^96) and a rate within (0, capacity];
    /// a disabled one must be all zero.
    error TokenBucketInvalidConfig(bool enabled, uint256 capacity, uint256 rate);

    /// @notice Takes `amount` out of the bucket, or reverts with {TokenBucketExceeded}.
    function consume(Bucket storage bucket, uint256 amount) internal {
        if (!tryConsume(bucket, amount)) revert TokenBucketExceeded(available(bucket), amount);
    }

    /// @notice Takes `amount` out of the bucket, adds it to `total` and returns true, or returns
    /// false and changes nothing when the bucket holds less than `amount`.
    /// @dev `total` is checked: it reverts past 2^112 - 1 units, beyond any real flow.
    function tryConsume(Bucket storage bucket, uint256 amount) internal returns (bool) {
        uint256 total = uint256(bucket.total) + amount;
        if (total > type(uint112).max) revert TokenBucketExceeded(type(uint112).max - bucket.total, amount);
        if (!bucket.enabled) {
            bucket.total = uint112(total);
            return true;
        }
        uint256 level = _levelNow(bucket.tokens, bucket.lastUpdated, bucket.capacity, bucket.rate);
        if (amount > level) return false;
        // one slot written once; level <= capacity < 2^96 and amount <= level
        bucket.tokens = uint96(level - amount);
        bucket.lastUpdated = uint40(block.timestamp);
        bucket.total = uint112(total);
        return true;
    }

    /// @notice Units available now (refill included); `type(uint256).max` when disabled.
    function available(Bucket storage bucket) internal view returns (uint256) {
        if (!bucket.enabled) return type(uint256).max;
        return _levelNow(bucket.tokens, bucket.lastUpdated, bucket.capacity, bucket.rate);
    }

    /// @notice Applies a new configuration. The level is first brought up to date under the old
    /// one, so a change never grants refill for time already past at the new rate; it is then capped
    /// at the new capacity. A bucket that was disabled starts full.
    function configure(Bucket storage bucket, Config memory config) internal {
        if (config.enabled) {
            if (
                config.capacity == 0 ||
                config.capacity > type(uint96).max ||
                config.rate == 0 ||
                config.rate > config.capacity
            ) {
                revert TokenBucketInvalidConfig(true, config.capacity, config.rate);
            }
        } else if (config.capacity != 0 || config.rate != 0) {
            revert TokenBucketInvalidConfig(false, config.capacity, config.rate);
        }
        uint256 level =
            bucket.enabled
                ? _levelNow(bucket.tokens, bucket.lastUpdated, bucket.capacity, bucket.rate)
                : config.capacity;
        if (level > config.capacity) level = config.capacity;
        bucket.tokens = uint96(level);
        bucket.lastUpdated = uint40(block.timestamp);
        bucket.enabled = config.enabled;
        bucket.capacity = config.capacity;
        bucket.rate = config.rate;
    }

    /// @notice The configuration of a bucket.
    function configOf(Bucket storage bucket) internal view returns (Config memory) {
        return Config({enabled: bucket.enabled, capacity: bucket.capacity, rate: bucket.rate});
    }

    function _levelNow(
        uint256 tokens,
        uint256 lastUpdated,
        uint256 capacity,
        uint256 rate
    ) private view returns (uint256) {
        // elapsed < 2^40 and rate < 2^128: the product cannot overflow 256 bits
        uint256 refilled = tokens + (block.timestamp - lastUpdated) * rate;
        return refilled < capacity ? refilled : capacity;
    }
}
