// Instructions per second of the 6502 core on a CUDA device: N copies of the
// functional test, one per GPU thread, for the first kInstructions each,
// against one host thread running the same program in the same run.
//
//   bench_m6502_cuda IMAGE [copies ...]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cule/cule.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s 6502_functional_test.bin [copies ...]\n", argv[0]);
    return 2;
  }
  constexpr uint64_t kInstructions = 2'000'000;
  std::vector<int> batch_sizes = {1024, 4096, 16384, 65536};
  if (argc > 2) {
    batch_sizes.clear();
    for (int i = 2; i < argc; ++i) batch_sizes.push_back(std::atoi(argv[i]));
  }
  try {
    const cule::FlatMachine initial = cule::FlatMachine::from_file(argv[1]);

    cule::FlatMachine host = initial;
    const auto start = std::chrono::steady_clock::now();
    const cule::CpuRunResult expected = host.run(0x0400, kInstructions);
    const double host_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double host_rate = expected.instructions / host_seconds;

    std::printf("| machines | GPU instructions/s | x one host core | bit-identical |\n");
    std::printf("| ---: | ---: | ---: | :---: |\n");
    std::printf("| 1 (host core) | %.3g | 1 | - |\n", host_rate);
    if (cule::cuda_device_count() == 0) {
      std::printf("\n(no CUDA device: GPU rows skipped)\n");
      return 0;
    }
    bool all_identical = true;
    for (int copies : batch_sizes) {
      double milliseconds = 0;
      cule::CudaRunOptions options;
      options.kernel_milliseconds = &milliseconds;
      const auto results =
          cule::run_flat_machines_cuda(initial, 0x0400, kInstructions, copies, options);
      bool identical = true;
      for (const auto& r : results) {
        identical = identical && r.pc == expected.pc && r.cycles == expected.cycles &&
                    r.instructions == expected.instructions;
      }
      all_identical = all_identical && identical;
      const double rate = double(copies) * expected.instructions / (milliseconds / 1e3);
      std::printf("| %d | %.3g | %.0f | %s |\n", copies, rate, rate / host_rate,
                  identical ? "yes" : "NO");
    }
    return all_identical ? 0 : 1;
  } catch (const cule::Error& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 2;
  }
}
