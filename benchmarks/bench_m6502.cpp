// Instructions per second of the 6502 core on one CPU core, over Klaus
// Dormann's functional test (~30 million instructions of mixed code).
#include <benchmark/benchmark.h>

#include <string>

#include "cule/flat_machine.hpp"

namespace {

const std::string kImage = std::string(CULE_TESTDATA_DIR) + "/6502/6502_functional_test.bin";

void BM_FunctionalTest(benchmark::State& state) {
  const cule::FlatMachine initial = cule::FlatMachine::from_file(kImage);
  uint64_t instructions = 0;
  uint64_t cycles = 0;
  for (auto _ : state) {
    cule::FlatMachine machine = initial;
    const cule::CpuRunResult result = machine.run(0x0400, 100'000'000);
    if (result.pc != 0x3469) state.SkipWithError("the functional test did not pass");
    instructions += result.instructions;
    cycles += result.cycles;
  }
  state.SetItemsProcessed(static_cast<int64_t>(instructions));
  state.counters["emulated_MHz"] =
      benchmark::Counter(static_cast<double>(cycles) / 1e6, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FunctionalTest)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
