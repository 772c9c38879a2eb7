// Launcher for flat-RAM 6502 machines on a CUDA device: one machine per thread.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/m6502.hpp"

namespace cule::kernels {

//! Runs `count` machines; machine i owns memories[i * 65536 .. +65536) and
//! cpus[i], and writes results[i]. All pointers are device memory.
void launch_flat_machines(uint8_t* memories, Cpu* cpus, CpuRunResult* results,
                          uint64_t max_instructions, int count, cudaStream_t stream);

}  // namespace cule::kernels
