// A 6502 over 64 KiB of flat RAM, for running CPU test images (such as Klaus
// Dormann's functional test) on the host or, one machine per thread, on a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/m6502.hpp"

namespace cule {

class FlatMachine {
 public:
  static constexpr size_t kMemorySize = 65536;

  //! Copies `size` bytes of `image` to `load_address`; the rest of RAM is 0.
  FlatMachine(const uint8_t* image, size_t size, uint16_t load_address = 0);

  //! Loads an image file (at most 64 KiB minus load_address).
  static FlatMachine from_file(const std::string& path, uint16_t load_address = 0);

  //! Sets PC to start_pc and runs until a trap, a JAM, or max_instructions.
  CpuRunResult run(uint16_t start_pc, uint64_t max_instructions);

  const Cpu& cpu() const { return cpu_; }
  const std::vector<uint8_t>& memory() const { return memory_; }

 private:
  Cpu cpu_{};
  std::vector<uint8_t> memory_;
};

//! Number of usable CUDA devices; 0 when cule was built without CUDA or no
//! driver or device is present.
int cuda_device_count();

//! Where run_flat_machines_cuda runs and what else it reports.
struct CudaRunOptions {
  int device = 0;                                //!< CUDA device index
  std::vector<uint8_t>* final_memory = nullptr;  //!< receives copies x 64 KiB when set
  double* kernel_milliseconds = nullptr;         //!< receives the kernel's run time when set
};

//! Runs `copies` independent copies of `machine` from start_pc on a CUDA
//! device, one per GPU thread, and returns each one's result. Throws
//! cule::DeviceError when no such device is available.
std::vector<CpuRunResult> run_flat_machines_cuda(const FlatMachine& machine, uint16_t start_pc,
                                                 uint64_t max_instructions, int copies,
                                                 const CudaRunOptions& options = {});

}  // namespace cule
