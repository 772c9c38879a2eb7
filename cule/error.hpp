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

}  // namespace cule
