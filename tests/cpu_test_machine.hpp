// A 64 KiB test machine for the 6502 core whose bus logs every access with
// the cycle count the core had reached when the access happened.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/m6502.hpp"

namespace cule::testing {

// Status register bits.
constexpr uint8_t kC = 0x01, kZ = 0x02, kI = 0x04, kD = 0x08, kB = 0x10, kU = 0x20, kV = 0x40,
                  kN = 0x80;
constexpr uint16_t kPc = 0x0200;  // where each instruction under test is placed

inline std::string hx(unsigned v, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "$%0*X", digits, v);
  return buf;
}

struct Access {
  uint16_t address;
  uint8_t value;
  bool write;
  uint32_t cycles;  // cpu.cycles when the access happened
};

struct Machine {
  std::vector<uint8_t> ram = std::vector<uint8_t>(0x10000, 0);
  Cpu cpu{};
  std::vector<Access> log;

  //! Runs one instruction, logging its bus accesses (cpu_step, or
  //! cpu_step_decoded when `decoded`).
  void step(bool decoded = false);

  //! Puts the CPU at kPc with the given registers; flags from p.
  void setup(uint8_t a, uint8_t x, uint8_t y, uint8_t sp, uint8_t p, uint32_t cycles) {
    cpu.PC = kPc;
    cpu.A = a;
    cpu.X = x;
    cpu.Y = y;
    cpu.SP = sp;
    cpu_set_status(cpu, p);
    cpu.jammed = 0;
    cpu.cycles = cycles;
  }
};

struct RecordingBus {
  Machine* m;
  uint8_t read(uint16_t address) {
    const uint8_t v = m->ram[address];
    m->log.push_back({address, v, false, m->cpu.cycles});
    return v;
  }
  void write(uint16_t address, uint8_t value) {
    m->log.push_back({address, value, true, m->cpu.cycles});
    m->ram[address] = value;
  }
};

inline void Machine::step(bool decoded) {
  log.clear();
  RecordingBus bus{this};
  if (decoded) {
    cpu_step_decoded(cpu, bus);
  } else {
    cpu_step(cpu, bus);
  }
}

}  // namespace cule::testing
