// Consoles on a CUDA device, for checking that the device runs the same
// emulation as the host, bit for bit.
#pragma once

#include <cstdint>
#include <vector>

#include "cule/console.hpp"

namespace cule {

//! What run_console_frames_cuda leaves: each copy's state and frame buffers.
struct CudaConsoleFrames {
  std::vector<ConsoleState> states;
  std::vector<uint8_t> pixels;  // copies x the snapshot's frame buffers
};

//! Runs `frames` frames with `inputs` held on `copies` copies of `snapshot`
//! (taken from `console`), one per GPU thread. Throws cule::DeviceError when
//! no CUDA device is available.
CudaConsoleFrames run_console_frames_cuda(const Console& console, const Console::Snapshot& snapshot,
                                          const ConsoleInputs& inputs, int frames, int copies,
                                          int device = 0);

}  // namespace cule
