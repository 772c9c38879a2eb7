#include "kernels/flat_machine.cuh"
#include "kernels/flat_memory.hpp"

namespace cule::kernels {

__global__ void run_flat_machines(uint8_t* memories, Cpu* cpus, CpuRunResult* results,
                                  uint64_t max_instructions, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  FlatMemory bus{memories + size_t(i) * 65536};
  Cpu cpu = cpus[i];
  results[i] = cpu_run_until_trap(cpu, bus, max_instructions);
  cpus[i] = cpu;
}

void launch_flat_machines(uint8_t* memories, Cpu* cpus, CpuRunResult* results,
                          uint64_t max_instructions, int count, cudaStream_t stream) {
  constexpr int kThreadsPerBlock = 128;
  const int blocks = (count + kThreadsPerBlock - 1) / kThreadsPerBlock;
  run_flat_machines<<<blocks, kThreadsPerBlock, 0, stream>>>(memories, cpus, results,
                                                             max_instructions, count);
}

}  // namespace cule::kernels
