// The 32-bit Mersenne Twister (MT19937, Matsumoto and Nishimura 1998), the
// generator behind std::mt19937 and ALE's Random class, as a plain struct a
// CUDA thread can own: ALE's system and environment RNGs live in each
// console's state, so the GPU reproduces their draws exactly.
//
// Output is identical to std::mt19937 for the same seed (a test checks it).
#pragma once

#include <cstdint>

#include "kernels/hd.hpp"

namespace cule {

struct Mt19937 {
  static constexpr int kWords = 624;
  static constexpr int kShift = 397;
  uint32_t word[kWords];
  uint32_t next;  // index of the next word to temper; kWords: twist first
};

//! std::mt19937's seeding: Knuth's linear recurrence with multiplier 1812433253.
CULE_HD inline void mt19937_seed(Mt19937& g, uint32_t seed) {
  g.word[0] = seed;
  for (int i = 1; i < Mt19937::kWords; ++i) {
    const uint32_t previous = g.word[i - 1];
    g.word[i] = 1812433253u * (previous ^ (previous >> 30)) + uint32_t(i);
  }
  g.next = Mt19937::kWords;
}

//! Regenerates all 624 words from the previous ones.
CULE_HD inline void mt19937_twist(Mt19937& g) {
  constexpr uint32_t kMatrix = 0x9908B0DFu;
  for (int i = 0; i < Mt19937::kWords; ++i) {
    const uint32_t upper = g.word[i] & 0x80000000u;
    const uint32_t lower = g.word[(i + 1) % Mt19937::kWords] & 0x7FFFFFFFu;
    const uint32_t mixed = upper | lower;
    g.word[i] = g.word[(i + Mt19937::kShift) % Mt19937::kWords] ^ (mixed >> 1) ^
                ((mixed & 1u) ? kMatrix : 0u);
  }
  g.next = 0;
}

//! The output of word `y` (MT19937's tempering).
CULE_HD inline uint32_t mt19937_temper(uint32_t y) {
  y ^= y >> 11;
  y ^= (y << 7) & 0x9D2C5680u;
  y ^= (y << 15) & 0xEFC60000u;
  return y ^ (y >> 18);
}

//! The next output, left to be drawn (the words are twisted first when due,
//! as the draw would).
CULE_HD inline uint32_t mt19937_peek(Mt19937& g) {
  if (g.next >= Mt19937::kWords) mt19937_twist(g);
  return mt19937_temper(g.word[g.next]);
}

//! The next 32-bit output.
CULE_HD inline uint32_t mt19937_next(Mt19937& g) {
  const uint32_t output = mt19937_peek(g);
  ++g.next;
  return output;
}

//! Skips `count` outputs (the words are still twisted on schedule).
CULE_HD inline void mt19937_discard(Mt19937& g, uint32_t count) {
  while (count > 0) {
    if (g.next >= Mt19937::kWords) mt19937_twist(g);
    const uint32_t left = uint32_t(Mt19937::kWords) - g.next;
    const uint32_t skip = count < left ? count : left;
    g.next += skip;
    count -= skip;
  }
}

}  // namespace cule
