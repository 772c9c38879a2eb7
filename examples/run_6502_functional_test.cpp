// Runs Klaus Dormann's 6502 functional test image on cule's CPU core and
// prints how fast the core ran it.
//
//   run_6502_functional_test [image.bin]
#include <chrono>
#include <cstdio>
#include <string>

#include "cule/cule.hpp"

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "../shared/testdata/6502/6502_functional_test.bin";
  constexpr uint16_t kStart = 0x0400;    // the image's entry point
  constexpr uint16_t kSuccess = 0x3469;  // where it loops forever when every check passed
  constexpr uint64_t kMaxInstructions = 100'000'000;
  constexpr double kAtariCpuMHz = 1.193182;  // NTSC 2600: 3.579545 MHz / 3

  try {
    cule::FlatMachine machine = cule::FlatMachine::from_file(path);
    const auto start = std::chrono::steady_clock::now();
    const cule::CpuRunResult result = machine.run(kStart, kMaxInstructions);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const bool passed = result.trapped && result.pc == kSuccess;
    const double mhz = result.cycles / seconds / 1e6;
    std::printf("6502 functional test: %s (PC=$%04X%s)\n", passed ? "PASSED" : "FAILED", result.pc,
                result.jammed ? ", jammed" : "");
    std::printf("  instructions      %llu\n", static_cast<unsigned long long>(result.instructions));
    std::printf("  cycles            %llu\n", static_cast<unsigned long long>(result.cycles));
    std::printf("  seconds           %.3f\n", seconds);
    std::printf("  instructions/s    %.1f million\n", result.instructions / seconds / 1e6);
    std::printf("  emulated clock    %.1f MHz (%.0fx a 2600's %.3f MHz 6507)\n", mhz,
                mhz / kAtariCpuMHz, kAtariCpuMHz);
    return passed ? 0 : 1;
  } catch (const cule::Error& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 2;
  }
}
