// FlatMachine's input checks and run limits.
#include <gtest/gtest.h>

#include <vector>

#include "cule/error.hpp"
#include "cule/flat_machine.hpp"
#include "kernels/flat_memory.hpp"

namespace cule {
namespace {

TEST(FlatMachine, MissingFileNamesThePath) {
  try {
    FlatMachine::from_file("/nonexistent/image.bin");
    FAIL() << "expected cule::Error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("/nonexistent/image.bin"), std::string::npos);
  }
}

TEST(FlatMachine, ImageThatDoesNotFitIsRejected) {
  std::vector<uint8_t> image(0x100, 0xEA);
  EXPECT_NO_THROW(FlatMachine(image.data(), image.size(), 0xFF00));
  EXPECT_THROW(FlatMachine(image.data(), image.size(), 0xFF01), Error);
  std::vector<uint8_t> too_big(65537);
  EXPECT_THROW(FlatMachine(too_big.data(), too_big.size()), Error);
}

TEST(FlatMachine, StopsAtTheInstructionCap) {
  std::vector<uint8_t> nops(0x1000, 0xEA);  // NOP: 2 cycles each
  FlatMachine machine(nops.data(), nops.size(), 0x0200);
  const CpuRunResult result = machine.run(0x0200, 1000);
  EXPECT_EQ(result.instructions, 1000u);
  EXPECT_EQ(result.cycles, 2000u);
  EXPECT_EQ(result.pc, 0x0200 + 1000);
  EXPECT_FALSE(result.trapped);
  EXPECT_FALSE(result.jammed);
}

TEST(FlatMachine, JamHaltsAndIsReported) {
  const uint8_t program[] = {0xEA, 0xEA, 0x02, 0xEA};  // NOP NOP JAM NOP
  FlatMachine machine(program, sizeof program, 0x0300);
  const CpuRunResult result = machine.run(0x0300, 100);
  EXPECT_TRUE(result.jammed);
  EXPECT_FALSE(result.trapped);
  EXPECT_EQ(result.instructions, 3u);
  EXPECT_EQ(result.pc, 0x0303);  // PC has moved past the JAM opcode, as in ALE
  EXPECT_TRUE(machine.cpu().jammed);
}

TEST(FlatMachine, RunTotalsSurviveTheCycleCounterWrapping) {
  // cpu.cycles is 32 bits; the 64-bit run total must not see the wrap.
  std::vector<uint8_t> ram(65536, 0xEA);  // NOP: 2 cycles each
  FlatMemory bus{ram.data()};
  Cpu cpu{};
  cpu.PC = 0x0200;
  cpu.cycles = 0xFFFFFF00u;
  const CpuRunResult result = cpu_run_until_trap(cpu, bus, 1000);
  EXPECT_EQ(result.instructions, 1000u);
  EXPECT_EQ(result.cycles, 2000u);
  EXPECT_EQ(cpu.cycles, uint32_t(0xFFFFFF00u + 2000u));  // the counter itself wrapped
}

TEST(FlatMachine, CudaRunWithoutDeviceIsAClearError) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  std::vector<uint8_t> nops(16, 0xEA);
  FlatMachine machine(nops.data(), nops.size());
  try {
    run_flat_machines_cuda(machine, 0, 10, 1);
    FAIL() << "expected cule::Error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("device"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace cule
