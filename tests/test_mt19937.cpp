// kernels/mt19937.hpp against the standard library's std::mt19937, which is
// the same generator by definition (and the one ALE's Random wraps).
#include <gtest/gtest.h>

#include <random>

#include "kernels/mt19937.hpp"

namespace cule {
namespace {

TEST(Mt19937, DrawsWhatStdMt19937Draws) {
  for (uint32_t seed : {0u, 1u, 4753849u, 0xFFFFFFFFu}) {
    SCOPED_TRACE(seed);
    std::mt19937 reference(seed);
    Mt19937 g;
    mt19937_seed(g, seed);
    // Past three twists of the 624-word state.
    for (int i = 0; i < 3 * Mt19937::kWords + 7; ++i) ASSERT_EQ(mt19937_next(g), reference()) << i;
  }
}

TEST(Mt19937, DiscardSkipsAsManyDraws) {
  for (uint32_t count : {0u, 1u, 2u, 623u, 624u, 625u, 5000u}) {
    SCOPED_TRACE(count);
    Mt19937 g;
    mt19937_seed(g, 2600);
    mt19937_next(g);  // start mid-state
    mt19937_discard(g, count);
    std::mt19937 expected(2600);
    expected();
    expected.discard(count);
    for (int i = 0; i < 10; ++i) ASSERT_EQ(mt19937_next(g), expected());
  }
}

TEST(Mt19937, PeekShowsTheNextDrawAndLeavesIt) {
  Mt19937 g;
  mt19937_seed(g, 2600);
  std::mt19937 reference(2600);
  // Across a twist: the peek at word 624 twists first, as the draw would.
  for (int i = 0; i < Mt19937::kWords + 3; ++i) {
    const uint32_t peeked = mt19937_peek(g);
    ASSERT_EQ(peeked, mt19937_peek(g)) << i;
    ASSERT_EQ(peeked, reference()) << i;
    ASSERT_EQ(mt19937_next(g), peeked) << i;
  }
}

}  // namespace
}  // namespace cule
