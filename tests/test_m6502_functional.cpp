// Klaus Dormann's functional test exercises every documented opcode, addressing
// mode and flag, decimal mode included; it loops on its own PC at the first
// failed check.
#include <gtest/gtest.h>

#include <cstdint>

#include "cule/flat_machine.hpp"
#include "testdata.hpp"

namespace cule {
namespace {

TEST(M6502Functional, ReachesTheSuccessTrap) {
  FlatMachine machine =
      FlatMachine::from_file(testing::testdata_path(testing::kFunctionalTestImage));
  const CpuRunResult result =
      machine.run(testing::kFunctionalTestStart, testing::kFunctionalTestMaxInstructions);
  EXPECT_FALSE(result.jammed);
  ASSERT_TRUE(result.trapped) << "no trap within " << testing::kFunctionalTestMaxInstructions
                              << " instructions; PC=$" << std::hex << result.pc;
  EXPECT_EQ(result.pc, testing::kFunctionalTestSuccess)
      << "failed check: the test trapped at PC=$" << std::hex << result.pc;
  // The test is ~30 million instructions long; a much shorter run means it
  // trapped early for some other reason.
  EXPECT_GT(result.instructions, 25'000'000u);
}

TEST(M6502Functional, ABrokenCheckTrapsElsewhere) {
  // Corrupt the operand of the very first check: an immediate load the test
  // then verifies. The run must trap at a failure trap, not at success.
  FlatMachine pristine =
      FlatMachine::from_file(testing::testdata_path(testing::kFunctionalTestImage));
  std::vector<uint8_t> image = pristine.memory();
  // Find the first "CMP #imm" after the entry point and flip its operand.
  size_t at = testing::kFunctionalTestStart;
  while (image[at] != 0xC9) ++at;
  image[at + 1] ^= 0xFF;
  FlatMachine broken(image.data(), image.size());
  const CpuRunResult result =
      broken.run(testing::kFunctionalTestStart, testing::kFunctionalTestMaxInstructions);
  EXPECT_TRUE(result.trapped);
  EXPECT_NE(result.pc, testing::kFunctionalTestSuccess);
}

}  // namespace
}  // namespace cule
