// The console on a CUDA device: frames run there must leave exactly the state
// and pixels that the host's run of the same frames leaves.
#include <gtest/gtest.h>

#include <cstring>

#include "cule/console_cuda.hpp"
#include "cule/error.hpp"
#include "cule/flat_machine.hpp"
#include "testdata.hpp"

namespace cule {
namespace {

TEST(ConsoleCuda, FramesMatchTheHostBitForBit) {
  if (cuda_device_count() == 0) {
    GTEST_SKIP() << "no CUDA device: the GPU run of console frames is skipped "
                    "(benchmarks/gpu/check.sh runs it on a GPU machine)";
  }
  Console console(Rom::load(testing::testdata_path("roms/tetris.bin")));
  for (int i = 0; i < 30; ++i) console.act(i % kNumActions);
  const Console::Snapshot start = console.clone_state();
  // Joystick down and fire held, switches released: the piece falls.
  ConsoleInputs inputs{};
  inputs.swcha = 0xDF;
  inputs.swchb = 0x3F;
  inputs.tia.fire = 0x01;
  for (int32_t& r : inputs.tia.resistance) r = kMaximumResistance;
  constexpr int kFrames = 120;

  Console::Snapshot host = start;
  const FrameBuffers buffers{host.frames.data(), uint32_t(host.frames.size() / 2)};
  for (int f = 0; f < kFrames; ++f)
    console_run_frame(host.state.machine, console.config(), buffers, inputs);

  constexpr int kCopies = 64;
  const CudaConsoleFrames device =
      run_console_frames_cuda(console, start, inputs, kFrames, kCopies);
  for (int i = 0; i < kCopies; ++i) {
    SCOPED_TRACE(i);
    const ConsoleState& s = device.states[i];
    EXPECT_EQ(0, std::memcmp(s.riot.ram, host.state.machine.riot.ram, sizeof s.riot.ram));
    EXPECT_EQ(s.cpu.PC, host.state.machine.cpu.PC);
    EXPECT_EQ(s.cpu.cycles, host.state.machine.cpu.cycles);
    EXPECT_EQ(s.tia.collision, host.state.machine.tia.collision);
    EXPECT_EQ(s.tia.current_buffer, host.state.machine.tia.current_buffer);
    EXPECT_EQ(0, std::memcmp(device.pixels.data() + i * host.frames.size(), host.frames.data(),
                             host.frames.size()));
  }
}

TEST(ConsoleCuda, WithoutADeviceIsAClearError) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  Console console(Rom::load(testing::testdata_path("roms/tetris.bin")));
  EXPECT_THROW(run_console_frames_cuda(console, console.clone_state(), ConsoleInputs{}, 1, 1),
               DeviceError);
}

}  // namespace
}  // namespace cule
