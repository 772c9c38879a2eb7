// MD5 (RFC 1321), used to identify ROM images as ALE does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cule {

//! The MD5 digest of `size` bytes, as 32 lowercase hex digits.
std::string md5_hex(const uint8_t* data, size_t size);

}  // namespace cule
