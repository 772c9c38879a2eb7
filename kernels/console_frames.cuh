// Launcher for consoles on a CUDA device: one console per thread, each
// running whole frames with the same CULE_HD code as the host.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/console.hpp"

namespace cule::kernels {

//! Runs `frames` frames on each of `count` consoles. Console i owns
//! states[i], inputs[i] and the frame buffers at pixels + i * 2 * frame_size.
//! `config.rom` and every pointer are device memory.
void launch_console_frames(ConsoleState* states, const ConsoleConfig& config, uint8_t* pixels,
                           uint32_t frame_size, const ConsoleInputs* inputs, int frames, int count,
                           cudaStream_t stream);

}  // namespace cule::kernels
