// The same 6502 core on a CUDA device: every copy of the functional test must
// end exactly as the host run does (PC, instructions, cycles, memory).
#include <gtest/gtest.h>

#include <vector>

#include "cule/flat_machine.hpp"
#include "testdata.hpp"

namespace cule {
namespace {

TEST(M6502Cuda, FunctionalTestMatchesTheHostBitForBit) {
  if (cuda_device_count() == 0) {
    GTEST_SKIP() << "no CUDA device: the GPU run of the functional test is skipped "
                    "(benchmarks/gpu/check.sh runs it on a GPU machine)";
  }
  FlatMachine host = FlatMachine::from_file(testing::testdata_path(testing::kFunctionalTestImage));
  const FlatMachine initial = host;
  const CpuRunResult expected =
      host.run(testing::kFunctionalTestStart, testing::kFunctionalTestMaxInstructions);
  ASSERT_EQ(expected.pc, testing::kFunctionalTestSuccess);

  constexpr int kCopies = 256;
  std::vector<uint8_t> memories;
  CudaRunOptions options;
  options.final_memory = &memories;
  const std::vector<CpuRunResult> results =
      run_flat_machines_cuda(initial, testing::kFunctionalTestStart,
                             testing::kFunctionalTestMaxInstructions, kCopies, options);
  ASSERT_EQ(results.size(), size_t(kCopies));
  for (int i = 0; i < kCopies; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(results[i].pc, expected.pc);
    EXPECT_EQ(results[i].instructions, expected.instructions);
    EXPECT_EQ(results[i].cycles, expected.cycles);
    EXPECT_EQ(results[i].trapped, expected.trapped);
    EXPECT_EQ(results[i].jammed, expected.jammed);
    const auto begin = memories.begin() + size_t(i) * FlatMachine::kMemorySize;
    EXPECT_TRUE(std::equal(begin, begin + FlatMachine::kMemorySize, host.memory().begin()));
  }
}

}  // namespace
}  // namespace cule
