#include "cule/flat_machine.hpp"

#include <fstream>
#include <iterator>

#include "cule/error.hpp"
#include "kernels/flat_memory.hpp"

namespace cule {

FlatMachine::FlatMachine(const uint8_t* image, size_t size, uint16_t load_address)
    : memory_(kMemorySize, 0) {
  if (size > kMemorySize - load_address) {
    throw Error("image: " + std::to_string(size) + " bytes at load_address " +
                std::to_string(load_address) + " do not fit in 64 KiB; expected at most " +
                std::to_string(kMemorySize - load_address) + " bytes");
  }
  std::copy(image, image + size, memory_.begin() + load_address);
}

FlatMachine FlatMachine::from_file(const std::string& path, uint16_t load_address) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw FileError("path: cannot open '" + path + "' for reading");
  std::vector<uint8_t> image((std::istreambuf_iterator<char>(file)),
                             std::istreambuf_iterator<char>());
  return FlatMachine(image.data(), image.size(), load_address);
}

CpuRunResult FlatMachine::run(uint16_t start_pc, uint64_t max_instructions) {
  cpu_.PC = start_pc;
  FlatMemory bus{memory_.data()};
  return cpu_run_until_trap(cpu_, bus, max_instructions);
}

}  // namespace cule

#ifndef CULE_WITH_CUDA
namespace cule {

int cuda_device_count() { return 0; }

std::vector<CpuRunResult> run_flat_machines_cuda(const FlatMachine&, uint16_t, uint64_t, int,
                                                 const CudaRunOptions&) {
  throw DeviceError("device: cule was built without CUDA (configure with CULE_CUDA=ON and nvcc)");
}

}  // namespace cule
#endif
