// The two ways the core runs an instruction give the same machine: code
// compiled per opcode (cpu_step on the host) and code shared by all opcodes
// that reads the opcode's table entry at run time (cpu_step_decoded, which
// the GPU runs), on a bus that reads the code ahead (CodeAhead) as the
// GPU's console bus does, or not. The other CPU tests check the per-opcode
// path against the 6502's documented behaviour; these hold the decoded
// path to it.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "cpu_test_machine.hpp"
#include "cule/flat_machine.hpp"
#include "kernels/flat_memory.hpp"
#include "kernels/m6502.hpp"
#include "testdata.hpp"

namespace {

using namespace cule::testing;

bool same_cpu(const cule::Cpu& l, const cule::Cpu& r) {
  return l.PC == r.PC && l.A == r.A && l.X == r.X && l.Y == r.Y && l.SP == r.SP && l.C == r.C &&
         l.V == r.V && l.D == r.D && l.I == r.I && (l.n_result & 0x80) == (r.n_result & 0x80) &&
         (l.z_result == 0) == (r.z_result == 0) && l.jammed == r.jammed && l.cycles == r.cycles;
}

TEST(M6502Dispatch, DecodedStepMatchesPerOpcodeStepAccessForAccess) {
  // Every opcode from random memory, registers and flags (decimal mode
  // included): the same accesses (address, value, direction, cycle) in the
  // same order, the same registers and the same memory after. Half the
  // trials read the code ahead; in every fourth the code is on the stack's
  // page, where the first push lands on the second byte after the opcode
  // (JSR pushes before it reads that byte, so it must not take it from the
  // bytes read ahead).
  std::mt19937 rng(6502);
  constexpr int kTrials = 24;
  for (int opcode = 0; opcode < 256; ++opcode) {
    for (int trial = 0; trial < kTrials; ++trial) {
      const bool ahead = trial % 2 == 1;
      Machine per_opcode;
      for (auto& byte : per_opcode.ram) byte = uint8_t(rng());
      per_opcode.setup(uint8_t(rng()), uint8_t(rng()), uint8_t(rng()), uint8_t(rng()),
                       uint8_t(rng()), rng() % 100000);
      if (trial % 4 == 3) {
        per_opcode.cpu.PC = uint16_t(0x0100 | (rng() % 0xfe));  // $0100-$01FD
        per_opcode.cpu.SP = uint8_t(per_opcode.cpu.PC + 2);
      }
      per_opcode.ram[per_opcode.cpu.PC] = uint8_t(opcode);
      Machine decoded = per_opcode;

      per_opcode.step(Step::per_opcode);
      decoded.step(ahead ? Step::decoded_reading_ahead : Step::decoded);
      SCOPED_TRACE("opcode " + hx(unsigned(opcode), 2) + ", trial " + std::to_string(trial) +
                   (ahead ? ", code read ahead" : ""));
      ASSERT_EQ(decoded.log.size(), per_opcode.log.size());
      for (size_t k = 0; k < per_opcode.log.size(); ++k) {
        const Access& want = per_opcode.log[k];
        const Access& got = decoded.log[k];
        ASSERT_TRUE(got.address == want.address && got.value == want.value &&
                    got.write == want.write && got.cycles == want.cycles)
            << "access " << k << ": " << (got.write ? "write " : "read ") << hx(got.address, 4)
            << "=" << hx(got.value, 2) << " at cycle " << got.cycles << ", per opcode "
            << (want.write ? "write " : "read ") << hx(want.address, 4) << "=" << hx(want.value, 2)
            << " at cycle " << want.cycles;
      }
      ASSERT_TRUE(same_cpu(decoded.cpu, per_opcode.cpu));
      ASSERT_TRUE(decoded.ram == per_opcode.ram);
    }
  }
}

// FlatMemory, reading the code ahead as the GPU's console bus does.
struct ReadingAheadFlatMemory : cule::FlatMemory {
  explicit ReadingAheadFlatMemory(uint8_t* memory) : FlatMemory{memory} {}
  cule::CodeAhead read_code_ahead(uint16_t pc) const { return code_ahead_in(ram, pc); }
  void took(uint16_t, uint8_t) const {}
};

template <class Bus>
void expect_decoded_step_passes_the_functional_test() {
  cule::FlatMachine machine = cule::FlatMachine::from_file(testdata_path(kFunctionalTestImage));
  std::vector<uint8_t> ram = machine.memory();
  Bus bus{ram.data()};
  cule::Cpu cpu{};
  cpu.PC = kFunctionalTestStart;
  cpu.SP = 0xFF;
  uint64_t instructions = 0;
  while (instructions < kFunctionalTestMaxInstructions && !cpu.jammed) {
    const uint16_t pc = cpu.PC;
    cule::cpu_step_decoded(cpu, bus);
    ++instructions;
    if (cpu.PC == pc) break;
  }
  EXPECT_FALSE(cpu.jammed);
  EXPECT_EQ(cpu.PC, kFunctionalTestSuccess) << "the test trapped at a failed check";
  EXPECT_GT(instructions, 25'000'000u);
}

TEST(M6502Dispatch, DecodedStepPassesTheFunctionalTest) {
  expect_decoded_step_passes_the_functional_test<cule::FlatMemory>();
}

TEST(M6502Dispatch, DecodedStepReadingCodeAheadPassesTheFunctionalTest) {
  expect_decoded_step_passes_the_functional_test<ReadingAheadFlatMemory>();
}

}  // namespace
