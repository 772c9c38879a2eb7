// Counter-based random numbers: each draw is a pure function of (seed,
// stream, counter), so a result never depends on how environments are split
// over threads or GPU blocks, and no generator state has to be stored.
//
//   uint32_t r = random_u32(seed, random_key(env, RandomStream::sticky), frame);
//   bool repeat = random_unit(r) < repeat_action_probability;
#pragma once

#include <cstdint>

#include "kernels/hd.hpp"

namespace cule {

//! What a draw is for: separate streams never share a counter.
enum class RandomStream : uint32_t {
  sticky = 1,  //!< sticky actions: one draw per emulated frame
  noop = 2,    //!< no-op starts: one draw per reset
};

//! SplitMix64's finaliser: a bijection of 64-bit words that mixes every input
//! bit into every output bit.
CULE_HD inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

//! The key of one environment's stream.
CULE_HD inline uint64_t random_key(uint32_t env, RandomStream stream) {
  return (uint64_t(stream) << 32) | env;
}

//! 32 random bits for (seed, key, counter).
CULE_HD inline uint32_t random_u32(uint64_t seed, uint64_t key, uint64_t counter) {
  const uint64_t a = mix64(seed ^ 0x9E3779B97F4A7C15ull);
  const uint64_t b = mix64(a ^ key);
  return uint32_t(mix64(b + counter * 0x9E3779B97F4A7C15ull) >> 32);
}

//! A draw as a float in [0, 1) with 24 random bits.
CULE_HD inline float random_unit(uint32_t bits) { return float(bits >> 8) * (1.0f / 16777216.0f); }

//! A draw as an integer in [0, n) (n > 0), by multiply-shift.
CULE_HD inline uint32_t random_below(uint32_t bits, uint32_t n) {
  return uint32_t((uint64_t(bits) * n) >> 32);
}

}  // namespace cule
