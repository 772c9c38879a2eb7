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

//! How Machine::step runs an instruction: cpu_step (per opcode, on the
//! host), cpu_step_decoded, or cpu_step_decoded on a bus that reads the
//! code ahead (CodeAhead), as the device's console bus does.
enum class Step { per_opcode, decoded, decoded_reading_ahead };

struct Machine {
  std::vector<uint8_t> ram = std::vector<uint8_t>(0x10000, 0);
  Cpu cpu{};
  std::vector<Access> log;

  //! Runs one instruction, logging its bus accesses.
  void step(Step how = Step::per_opcode);

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

//! The opcode at `pc` in a flat 64 KiB `memory` and the two bytes after it,
//! read ahead and predecoded as the device's console bus keeps them.
inline CodeAhead code_ahead_in(const uint8_t* memory, uint16_t pc) {
  const PredecodedCode code =
      predecode(memory[pc], memory[uint16_t(pc + 1)], memory[uint16_t(pc + 2)]);
  return code_ahead(&code);
}

//! A RecordingBus that reads the code ahead (code_ahead_in), unlogged; a
//! byte the step takes from it is logged as its read, with the value read
//! ahead.
struct ReadingAheadBus : RecordingBus {
  CodeAhead read_code_ahead(uint16_t pc) const { return code_ahead_in(m->ram.data(), pc); }
  void took(uint16_t address, uint8_t value) {
    m->log.push_back({address, value, false, m->cpu.cycles});
  }
};

inline void Machine::step(Step how) {
  log.clear();
  if (how == Step::per_opcode) {
    RecordingBus bus{this};
    cpu_step(cpu, bus);
  } else if (how == Step::decoded) {
    RecordingBus bus{this};
    cpu_step_decoded(cpu, bus);
  } else {
    ReadingAheadBus bus{{this}};
    cpu_step_decoded(cpu, bus);
  }
}

}  // namespace cule::testing
