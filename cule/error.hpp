// The exceptions every public entry throws on bad input or a failed device call.
#pragma once

#include <stdexcept>
#include <string>

namespace cule {

//! Invalid argument or unsupported input. The message names the argument, its
//! value and what was expected. (Python: ValueError.)
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! A file that cannot be opened or read. (Python: FileNotFoundError.)
class FileError : public Error {
 public:
  using Error::Error;
};

//! A device that is missing or failed. (Python: RuntimeError.)
class DeviceError : public Error {
 public:
  using Error::Error;
};

//! The message of the DeviceError for a GPU this build of cule has no code
//! for: CUDA device `device`, named `name`, of compute capability
//! major.minor, where the build compiled its kernels for `built` (its
//! CMAKE_CUDA_ARCHITECTURES).
inline std::string no_code_for_device_message(int device, const std::string& name, int major,
                                              int minor, const std::string& built) {
  const std::string architecture = std::to_string(major) + std::to_string(minor);
  return "device: cuda:" + std::to_string(device) + " (" + name + ") has compute capability " +
         std::to_string(major) + "." + std::to_string(minor) +
         ", and this build of cule has CUDA code for " + built +
         " only (CMAKE_CUDA_ARCHITECTURES): rebuild it with -DCMAKE_CUDA_ARCHITECTURES=" +
         architecture + " (pip: CMAKE_ARGS=-DCMAKE_CUDA_ARCHITECTURES=" + architecture +
         " pip install .)";
}

}  // namespace cule
