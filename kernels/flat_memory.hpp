// A flat 64 KiB RAM bus for the 6502 core: every address is RAM. Used to run
// CPU test images (e.g. Klaus Dormann's functional test) on any backend.
#pragma once

#include <cstdint>

#include "kernels/hd.hpp"

namespace cule {

//! Bus over 64 KiB of caller-owned memory.
struct FlatMemory {
  uint8_t* ram;  // 65536 bytes

  CULE_HD uint8_t read(uint16_t address) const { return ram[address]; }
  CULE_HD void write(uint16_t address, uint8_t value) const { ram[address] = value; }
};

}  // namespace cule
