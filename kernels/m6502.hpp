// MOS 6502 / 6507 core, exact to the CPU that ALE emulates by default
// (Stella 2.x "M6502Low": whole-instruction cycle counts, no cycle stepping).
//
// Usage:
//   struct MyBus {
//     CULE_HD uint8_t read(uint16_t address);
//     CULE_HD void write(uint16_t address, uint8_t value);
//     // Optional, for cpu_step_decoded (see CodeAhead):
//     CULE_HD cule::CodeAhead read_code_ahead(uint16_t pc);
//     CULE_HD void took(uint16_t address, uint8_t value);
//   };
//   cule::Cpu cpu{};
//   cule::cpu_reset(cpu, bus);           // registers as ALE sets them, PC from $FFFC
//   cule::cpu_step(cpu, bus);            // one instruction; cpu.cycles advances
//   cule::cpu_step_decoded(cpu, bus);    // the same, as the GPU runs it (see execute)
//   if (cpu.jammed) { ... }              // a JAM opcode halted the core
//
// The core knows nothing of the memory map: the bus receives full 16-bit
// addresses and decodes them (a flat 64 KiB RAM, or the 2600's 13-bit bus).
//
// Timing follows ALE: the opcode's whole cycle count (kOpcodes) is added right
// after the opcode fetch, before any operand access; reads indexed across a page
// (abs,X / abs,Y / (zp),Y) add 1 just before the operand read; a taken branch adds
// 1, or 2 when it lands on another page. A bus that needs the time of an access
// (the TIA) reads cpu.cycles.
//
// Deliberate ALE parity, where ALE differs from an NMOS 6502:
// - decimal ADC/SBC/RRA/ISB go through ALE's BCD tables: the result and carry
//   match the chip for valid BCD, but N, Z and V come from the decimal result
//   (the chip derives them from intermediate binary sums);
// - (zp,X) and (zp),Y read the pointer's high byte from $0100 when the pointer
//   is $FF (the chip wraps to $00);
// - LAX zp takes 4 cycles (the chip takes 3);
// - SHA/SHX/SHY/TAS AND with (high byte of the final address + 1), and the
//   address is never corrupted on a page cross;
// - ANE and LXA use the constant $EE for the chip's unstable "magic" value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "kernels/hd.hpp"

namespace cule {

//! Registers and flags of one 6502. Trivially copyable; zero-initialise it.
struct Cpu {
  uint16_t PC;
  uint8_t A, X, Y, SP;
  uint8_t C, V, D, I;  // flags, 0 or 1
  uint8_t n_result;    // N is bit 7 of the last value that set it
  uint8_t z_result;    // Z is set when the last value that set it was 0
  uint8_t jammed;      // a JAM opcode ran: the core stays halted until reset
  uint32_t cycles;     // processor cycles run; the caller may rebase it
};

//! The opcode at the PC, the two bytes after it and the opcode's table entry
//! (packed, kPackedDecoded), which a bus may read in one go (read_code_ahead,
//! e.g. from PredecodedCode) where reading the bytes has no side effects, as
//! ROM has none: cpu_step_decoded then waits neither for the opcode to read
//! its table entry nor for the entry to read the operand bytes, on the GPU
//! two memory latencies less per instruction. The step takes each byte it
//! uses from here where it would have read it, and tells the bus so (took),
//! which then does what a read of it does (the console: the data bus holds
//! the byte).
struct CodeAhead {
  bool read;  //!< false: nothing was read ahead; the step reads each byte itself
  uint8_t opcode, first, second;
  uint64_t decoded;  //!< where read: kPackedDecoded[opcode]
};

enum class AddressMode : uint8_t {
  Implied,
  Accumulator,
  Immediate,
  Relative,
  Zero,
  ZeroX,
  ZeroY,
  Absolute,
  AbsoluteX,
  AbsoluteY,
  Indirect,
  IndirectX,
  IndirectY,
};

// clang-format off
enum class Op : uint8_t {
  // documented
  ADC, AND, ASL, BCC, BCS, BEQ, BIT, BMI, BNE, BPL, BRK, BVC, BVS, CLC, CLD,
  CLI, CLV, CMP, CPX, CPY, DEC, DEX, DEY, EOR, INC, INX, INY, JMP, JSR, LDA,
  LDX, LDY, LSR, NOP, ORA, PHA, PHP, PLA, PLP, ROL, ROR, RTI, RTS, SBC, SEC,
  SED, SEI, STA, STX, STY, TAX, TAY, TSX, TXA, TXS, TYA,
  // undocumented NMOS
  ALR, ANC, ANE, ARR, DCP, ISB, JAM, LAS, LAX, LXA, RLA, RRA, SAX, SBX, SHA,
  SHX, SHY, SLO, SRE, TAS,
};
// clang-format on

struct Opcode {
  Op op;
  AddressMode mode;
  uint8_t cycles;  // ALE's base cycle count
};

namespace opcode_matrix {
using M = AddressMode;
constexpr M imp = M::Implied, acc = M::Accumulator, imm = M::Immediate, rel = M::Relative,
            zp = M::Zero, zpx = M::ZeroX, zpy = M::ZeroY, abs = M::Absolute, abx = M::AbsoluteX,
            aby = M::AbsoluteY, ind = M::Indirect, izx = M::IndirectX, izy = M::IndirectY;

// The one table of the instruction set: operation, addressing mode and ALE's
// cycle count for each opcode, laid out as the datasheet's 16 x 16 matrix.
// clang-format off
constexpr Opcode kOpcodes[256] = {
  // 0x00
  {Op::BRK,imp,7}, {Op::ORA,izx,6}, {Op::JAM,imp,2}, {Op::SLO,izx,8},
  {Op::NOP,zp ,3}, {Op::ORA,zp ,3}, {Op::ASL,zp ,5}, {Op::SLO,zp ,5},
  {Op::PHP,imp,3}, {Op::ORA,imm,2}, {Op::ASL,acc,2}, {Op::ANC,imm,2},
  {Op::NOP,abs,4}, {Op::ORA,abs,4}, {Op::ASL,abs,6}, {Op::SLO,abs,6},
  // 0x10
  {Op::BPL,rel,2}, {Op::ORA,izy,5}, {Op::JAM,imp,2}, {Op::SLO,izy,8},
  {Op::NOP,zpx,4}, {Op::ORA,zpx,4}, {Op::ASL,zpx,6}, {Op::SLO,zpx,6},
  {Op::CLC,imp,2}, {Op::ORA,aby,4}, {Op::NOP,imp,2}, {Op::SLO,aby,7},
  {Op::NOP,abx,4}, {Op::ORA,abx,4}, {Op::ASL,abx,7}, {Op::SLO,abx,7},
  // 0x20
  {Op::JSR,abs,6}, {Op::AND,izx,6}, {Op::JAM,imp,2}, {Op::RLA,izx,8},
  {Op::BIT,zp ,3}, {Op::AND,zp ,3}, {Op::ROL,zp ,5}, {Op::RLA,zp ,5},
  {Op::PLP,imp,4}, {Op::AND,imm,2}, {Op::ROL,acc,2}, {Op::ANC,imm,2},
  {Op::BIT,abs,4}, {Op::AND,abs,4}, {Op::ROL,abs,6}, {Op::RLA,abs,6},
  // 0x30
  {Op::BMI,rel,2}, {Op::AND,izy,5}, {Op::JAM,imp,2}, {Op::RLA,izy,8},
  {Op::NOP,zpx,4}, {Op::AND,zpx,4}, {Op::ROL,zpx,6}, {Op::RLA,zpx,6},
  {Op::SEC,imp,2}, {Op::AND,aby,4}, {Op::NOP,imp,2}, {Op::RLA,aby,7},
  {Op::NOP,abx,4}, {Op::AND,abx,4}, {Op::ROL,abx,7}, {Op::RLA,abx,7},
  // 0x40
  {Op::RTI,imp,6}, {Op::EOR,izx,6}, {Op::JAM,imp,2}, {Op::SRE,izx,8},
  {Op::NOP,zp ,3}, {Op::EOR,zp ,3}, {Op::LSR,zp ,5}, {Op::SRE,zp ,5},
  {Op::PHA,imp,3}, {Op::EOR,imm,2}, {Op::LSR,acc,2}, {Op::ALR,imm,2},
  {Op::JMP,abs,3}, {Op::EOR,abs,4}, {Op::LSR,abs,6}, {Op::SRE,abs,6},
  // 0x50
  {Op::BVC,rel,2}, {Op::EOR,izy,5}, {Op::JAM,imp,2}, {Op::SRE,izy,8},
  {Op::NOP,zpx,4}, {Op::EOR,zpx,4}, {Op::LSR,zpx,6}, {Op::SRE,zpx,6},
  {Op::CLI,imp,2}, {Op::EOR,aby,4}, {Op::NOP,imp,2}, {Op::SRE,aby,7},
  {Op::NOP,abx,4}, {Op::EOR,abx,4}, {Op::LSR,abx,7}, {Op::SRE,abx,7},
  // 0x60
  {Op::RTS,imp,6}, {Op::ADC,izx,6}, {Op::JAM,imp,2}, {Op::RRA,izx,8},
  {Op::NOP,zp ,3}, {Op::ADC,zp ,3}, {Op::ROR,zp ,5}, {Op::RRA,zp ,5},
  {Op::PLA,imp,4}, {Op::ADC,imm,2}, {Op::ROR,acc,2}, {Op::ARR,imm,2},
  {Op::JMP,ind,5}, {Op::ADC,abs,4}, {Op::ROR,abs,6}, {Op::RRA,abs,6},
  // 0x70
  {Op::BVS,rel,2}, {Op::ADC,izy,5}, {Op::JAM,imp,2}, {Op::RRA,izy,8},
  {Op::NOP,zpx,4}, {Op::ADC,zpx,4}, {Op::ROR,zpx,6}, {Op::RRA,zpx,6},
  {Op::SEI,imp,2}, {Op::ADC,aby,4}, {Op::NOP,imp,2}, {Op::RRA,aby,7},
  {Op::NOP,abx,4}, {Op::ADC,abx,4}, {Op::ROR,abx,7}, {Op::RRA,abx,7},
  // 0x80
  {Op::NOP,imm,2}, {Op::STA,izx,6}, {Op::NOP,imm,2}, {Op::SAX,izx,6},
  {Op::STY,zp ,3}, {Op::STA,zp ,3}, {Op::STX,zp ,3}, {Op::SAX,zp ,3},
  {Op::DEY,imp,2}, {Op::NOP,imm,2}, {Op::TXA,imp,2}, {Op::ANE,imm,2},
  {Op::STY,abs,4}, {Op::STA,abs,4}, {Op::STX,abs,4}, {Op::SAX,abs,4},
  // 0x90
  {Op::BCC,rel,2}, {Op::STA,izy,6}, {Op::JAM,imp,2}, {Op::SHA,izy,6},
  {Op::STY,zpx,4}, {Op::STA,zpx,4}, {Op::STX,zpy,4}, {Op::SAX,zpy,4},
  {Op::TYA,imp,2}, {Op::STA,aby,5}, {Op::TXS,imp,2}, {Op::TAS,aby,5},
  {Op::SHY,abx,5}, {Op::STA,abx,5}, {Op::SHX,aby,5}, {Op::SHA,aby,5},
  // 0xA0
  {Op::LDY,imm,2}, {Op::LDA,izx,6}, {Op::LDX,imm,2}, {Op::LAX,izx,6},
  {Op::LDY,zp ,3}, {Op::LDA,zp ,3}, {Op::LDX,zp ,3}, {Op::LAX,zp ,4},
  {Op::TAY,imp,2}, {Op::LDA,imm,2}, {Op::TAX,imp,2}, {Op::LXA,imm,2},
  {Op::LDY,abs,4}, {Op::LDA,abs,4}, {Op::LDX,abs,4}, {Op::LAX,abs,4},
  // 0xB0
  {Op::BCS,rel,2}, {Op::LDA,izy,5}, {Op::JAM,imp,2}, {Op::LAX,izy,5},
  {Op::LDY,zpx,4}, {Op::LDA,zpx,4}, {Op::LDX,zpy,4}, {Op::LAX,zpy,4},
  {Op::CLV,imp,2}, {Op::LDA,aby,4}, {Op::TSX,imp,2}, {Op::LAS,aby,4},
  {Op::LDY,abx,4}, {Op::LDA,abx,4}, {Op::LDX,aby,4}, {Op::LAX,aby,4},
  // 0xC0
  {Op::CPY,imm,2}, {Op::CMP,izx,6}, {Op::NOP,imm,2}, {Op::DCP,izx,8},
  {Op::CPY,zp ,3}, {Op::CMP,zp ,3}, {Op::DEC,zp ,5}, {Op::DCP,zp ,5},
  {Op::INY,imp,2}, {Op::CMP,imm,2}, {Op::DEX,imp,2}, {Op::SBX,imm,2},
  {Op::CPY,abs,4}, {Op::CMP,abs,4}, {Op::DEC,abs,6}, {Op::DCP,abs,6},
  // 0xD0
  {Op::BNE,rel,2}, {Op::CMP,izy,5}, {Op::JAM,imp,2}, {Op::DCP,izy,8},
  {Op::NOP,zpx,4}, {Op::CMP,zpx,4}, {Op::DEC,zpx,6}, {Op::DCP,zpx,6},
  {Op::CLD,imp,2}, {Op::CMP,aby,4}, {Op::NOP,imp,2}, {Op::DCP,aby,7},
  {Op::NOP,abx,4}, {Op::CMP,abx,4}, {Op::DEC,abx,7}, {Op::DCP,abx,7},
  // 0xE0
  {Op::CPX,imm,2}, {Op::SBC,izx,6}, {Op::NOP,imm,2}, {Op::ISB,izx,8},
  {Op::CPX,zp ,3}, {Op::SBC,zp ,3}, {Op::INC,zp ,5}, {Op::ISB,zp ,5},
  {Op::INX,imp,2}, {Op::SBC,imm,2}, {Op::NOP,imp,2}, {Op::SBC,imm,2},
  {Op::CPX,abs,4}, {Op::SBC,abs,4}, {Op::INC,abs,6}, {Op::ISB,abs,6},
  // 0xF0
  {Op::BEQ,rel,2}, {Op::SBC,izy,5}, {Op::JAM,imp,2}, {Op::ISB,izy,8},
  {Op::NOP,zpx,4}, {Op::SBC,zpx,4}, {Op::INC,zpx,6}, {Op::ISB,zpx,6},
  {Op::SED,imp,2}, {Op::SBC,aby,4}, {Op::NOP,imp,2}, {Op::ISB,aby,7},
  {Op::NOP,abx,4}, {Op::SBC,abx,4}, {Op::INC,abx,7}, {Op::ISB,abx,7},
};
// clang-format on
}  // namespace opcode_matrix

using opcode_matrix::kOpcodes;

//! How an instruction uses its memory operand.
enum class Access : uint8_t { Read, Write, Modify };

CULE_HD constexpr Access access_of(Op op) {
  switch (op) {
    case Op::STA:
    case Op::STX:
    case Op::STY:
    case Op::SAX:
    case Op::SHA:
    case Op::SHX:
    case Op::SHY:
    case Op::TAS:
    case Op::JMP: return Access::Write;
    case Op::ASL:
    case Op::LSR:
    case Op::ROL:
    case Op::ROR:
    case Op::INC:
    case Op::DEC:
    case Op::SLO:
    case Op::RLA:
    case Op::SRE:
    case Op::RRA:
    case Op::DCP:
    case Op::ISB: return Access::Modify;
    default: return Access::Read;
  }
}

// ---------------------------------------------------------------------------
// Decoding

//! What execute() does for one opcode: its table entry worked out into the
//! choices execute makes. Most instructions are one pass through a small
//! ALU: an operation on a first and a second value, the result to registers
//! or memory, and flags from it. Branches test one flag. The rest (the stack,
//! jumps, BIT, flag changes, most undocumented opcodes) have code of their
//! own. Where the opcode is a constant (the host's switch over the 256)
//! every choice folds away; where it is read at run time (the GPU), lanes of
//! a warp that run different loads, stores, transfers, logic, arithmetic,
//! compares, shifts, increments or branches share one path instead of
//! taking one each. Eight bytes, read as one word on the GPU.
struct Decoded {
  Op op;
  uint8_t cycles;      //!< ALE's base cycle count
  uint8_t kind;        //!< Decoded::alu, branch or other
  uint8_t addressing;  //!< Decoded::k* addressing bits
  uint8_t first;       //!< ALU: the first value (Decoded::a ... operand)
                       //!< branch: the flag (Decoded::n, v, c or z)
  uint8_t second;      //!< ALU: the operation and the second value's bits
  uint8_t targets;     //!< ALU: where the result goes, and the flags it sets
  uint8_t constant;    //!< ALU: the second value when not the operand
                       //!< branch: the flag's value that takes it (0 or 1)

  enum Kind : uint8_t { alu, branch, other };

  // addressing: the bytes after the opcode, the effective address, the operand
  static constexpr uint8_t kByte = 1;              //!< reads the byte after the opcode
  static constexpr uint8_t kWord = 2;              //!< and the one after that
  static constexpr uint8_t kZeroPageIndex = 4;     //!< adds the index to the byte, in page zero
  static constexpr uint8_t kPointer = 8;           //!< reads a pointer there (with kWord: JMP's,
                                                   //!< whose high byte stays in its page)
  static constexpr uint8_t kRead = 16;             //!< reads the operand at the address
  static constexpr uint8_t kIndexAfter = 32;       //!< adds the index to the address (16 bits)
  static constexpr uint8_t kIndexY = 64;           //!< the index is Y, not X
  static constexpr uint8_t kPageCrossCycle = 128;  //!< a cycle more when the index crosses a page

  // first (ALU)
  enum First : uint8_t { a, x, y, sp, a_and_x, operand };
  // first (branch)
  enum Flag : uint8_t { n, v, c, z };
  // second: the operation (bits 0-2), the carry into it (bits 3-4), and these
  static constexpr uint8_t kConstant = 32;  //!< the second value is `constant`
  static constexpr uint8_t kInverted = 64;  //!< the second value is inverted
  static constexpr uint8_t kDecimal = 128;  //!< ADC and SBC: BCD when D is set
  enum Operation : uint8_t { pass, and_, or_, xor_, add, shift_left, shift_right };
  enum CarryIn : uint8_t { carry_zero = 0, carry_one = 8, carry_flag = 16 };
  // targets
  static constexpr uint8_t kA = 1, kX = 2, kY = 4, kSP = 8;
  static constexpr uint8_t kMemory = 16;  //!< written to the effective address
  static constexpr uint8_t kSetsNZ = 32;
  static constexpr uint8_t kSetsC = 64;   //!< the carry out of the operation
  static constexpr uint8_t kSetsV = 128;  //!< the overflow of an add
};

// ---------------------------------------------------------------------------
// Flags

CULE_HD CULE_FORCE_INLINE void set_nz(Cpu& cpu, uint8_t value) {
  cpu.n_result = value;
  cpu.z_result = value;
}

//! The status register P as pushed by PHP and BRK (B and bit 5 always read 1).
CULE_HD inline uint8_t cpu_status(const Cpu& cpu) {
  return static_cast<uint8_t>(0x30 | (cpu.n_result & 0x80) | (cpu.V << 6) | (cpu.D << 3) |
                              (cpu.I << 2) | ((cpu.z_result == 0) << 1) | cpu.C);
}

//! Loads P as PLP and RTI do (B is not stored).
CULE_HD inline void cpu_set_status(Cpu& cpu, uint8_t p) {
  cpu.n_result = p & 0x80;
  cpu.V = (p >> 6) & 1;
  cpu.D = (p >> 3) & 1;
  cpu.I = (p >> 2) & 1;
  cpu.z_result = (p & 0x02) ? 0 : 1;
  cpu.C = p & 1;
}

// ---------------------------------------------------------------------------
// Arithmetic

namespace detail {

// ALE's two BCD tables: packed BCD to binary, and binary (mod 100) to BCD.
CULE_HD CULE_FORCE_INLINE int bcd_to_binary(int t) { return (t >> 4) * 10 + (t & 0x0f); }
// ALE indexes its binary-to-BCD table with the raw decimal difference; an
// invalid-BCD operand can make that index negative, and ALE's table layout then
// reads the BCD-to-binary table just below it.
CULE_HD CULE_FORCE_INLINE uint8_t binary_to_bcd(int t) {
  if (t < 0) return static_cast<uint8_t>(bcd_to_binary(256 + t));
  return static_cast<uint8_t>((((t % 100) / 10) << 4) | (t % 10));
}

//! One pass through the ALU: `operation` (Decoded::Operation) on x and y
//! with `carry_in`, the result to the registers and the flags `targets`
//! (Decoded's bits) names. Returns the result (for a memory target). An add
//! carries out of bit 7; a shift carries out the bit it shifts out.
CULE_HD CULE_FORCE_INLINE uint8_t alu(Cpu& cpu, uint8_t operation, uint8_t x, uint8_t y,
                                      uint8_t carry_in, uint8_t targets) {
  using D = Decoded;
  const unsigned sum = unsigned(x) + y + carry_in;
  const uint8_t value = operation == D::pass   ? x
                        : operation == D::and_ ? static_cast<uint8_t>(x & y)
                        : operation == D::or_  ? static_cast<uint8_t>(x | y)
                        : operation == D::xor_ ? static_cast<uint8_t>(x ^ y)
                        : operation == D::add  ? static_cast<uint8_t>(sum)
                        : operation == D::shift_left
                            ? static_cast<uint8_t>((x << 1) | carry_in)
                            : static_cast<uint8_t>((x >> 1) | (carry_in << 7));
  const uint8_t carry = operation == D::add          ? static_cast<uint8_t>(sum >> 8)
                        : operation == D::shift_left ? static_cast<uint8_t>(x >> 7)
                                                     : static_cast<uint8_t>(x & 1);
  if (targets & D::kA) cpu.A = value;
  if (targets & D::kX) cpu.X = value;
  if (targets & D::kY) cpu.Y = value;
  if (targets & D::kSP) cpu.SP = value;
  if (targets & D::kSetsNZ) set_nz(cpu, value);
  if (targets & D::kSetsC) cpu.C = carry;
  if (targets & D::kSetsV) cpu.V = ((x ^ value) & (y ^ value) & 0x80) != 0;
  return value;
}

CULE_HD CULE_FORCE_INLINE void add_binary(Cpu& cpu, uint8_t operand) {
  alu(cpu, Decoded::add, cpu.A, operand, cpu.C,
      Decoded::kA | Decoded::kSetsNZ | Decoded::kSetsC | Decoded::kSetsV);
}

// ADC and SBC in decimal mode, through ALE's BCD tables.
CULE_HD CULE_FORCE_INLINE void adc_decimal(Cpu& cpu, uint8_t operand) {
  uint8_t old_a = cpu.A;
  int sum = bcd_to_binary(cpu.A) + bcd_to_binary(operand) + cpu.C;
  cpu.C = sum > 99;
  cpu.A = binary_to_bcd(sum & 0xff);
  set_nz(cpu, cpu.A);
  cpu.V = ((old_a ^ cpu.A) & 0x80) && ((cpu.A ^ operand) & 0x80);
}

CULE_HD CULE_FORCE_INLINE void sbc_decimal(Cpu& cpu, uint8_t operand) {
  uint8_t old_a = cpu.A;
  int borrow = cpu.C ? 0 : 1;
  int difference = bcd_to_binary(cpu.A) - bcd_to_binary(operand) - borrow;
  if (difference < 0) difference += 100;
  cpu.A = binary_to_bcd(difference);
  set_nz(cpu, cpu.A);
  cpu.C = old_a >= operand + borrow;
  cpu.V = ((old_a ^ cpu.A) & 0x80) && ((cpu.A ^ operand) & 0x80);
}

CULE_HD CULE_FORCE_INLINE void adc(Cpu& cpu, uint8_t operand) {
  if (cpu.D) {
    adc_decimal(cpu, operand);
  } else {
    add_binary(cpu, operand);
  }
}

CULE_HD CULE_FORCE_INLINE void sbc(Cpu& cpu, uint8_t operand) {
  if (cpu.D) {
    sbc_decimal(cpu, operand);
  } else {
    add_binary(cpu, static_cast<uint8_t>(~operand));
  }
}

// As CMP's Decoded: the inverted operand and 1 added.
CULE_HD CULE_FORCE_INLINE void compare(Cpu& cpu, uint8_t reg, uint8_t operand) {
  alu(cpu, Decoded::add, reg, static_cast<uint8_t>(~operand), 1,
      Decoded::kSetsNZ | Decoded::kSetsC);
}

CULE_HD CULE_FORCE_INLINE uint8_t shift_left(Cpu& cpu, uint8_t value, uint8_t carry_in) {
  return alu(cpu, Decoded::shift_left, value, 0, carry_in, Decoded::kSetsNZ | Decoded::kSetsC);
}

CULE_HD CULE_FORCE_INLINE uint8_t shift_right(Cpu& cpu, uint8_t value, uint8_t carry_in) {
  return alu(cpu, Decoded::shift_right, value, 0, carry_in, Decoded::kSetsNZ | Decoded::kSetsC);
}

CULE_HD CULE_FORCE_INLINE void arr(Cpu& cpu, uint8_t operand) {
  uint8_t value = cpu.A & operand;
  uint8_t a = static_cast<uint8_t>((value >> 1) | (cpu.C << 7));
  set_nz(cpu, a);
  if (!cpu.D) {
    cpu.C = (a >> 6) & 1;
    cpu.V = ((a >> 6) ^ (a >> 5)) & 1;
  } else {
    // 64doc's decimal ARR: flags from the rotated value, then BCD fix-ups.
    cpu.V = ((value ^ a) & 0x40) != 0;
    if ((value & 0x0f) + (value & 0x01) > 0x05) a = (a & 0xf0) | ((a + 0x06) & 0x0f);
    cpu.C = (value & 0xf0) + (value & 0x10) > 0x50;
    if (cpu.C) a = static_cast<uint8_t>(a + 0x60);
  }
  cpu.A = a;
}

template <class Bus>
CULE_HD CULE_FORCE_INLINE void push(Cpu& cpu, Bus& bus, uint8_t value) {
  bus.write(0x0100 | cpu.SP, value);
  cpu.SP--;
}

// The stack reads as ALE performs them: a dummy read at SP, then reads after
// each increment.
template <class Bus>
CULE_HD CULE_FORCE_INLINE uint8_t pull_first(Cpu& cpu, Bus& bus) {
  bus.read(0x0100 | cpu.SP);
  cpu.SP++;
  return bus.read(0x0100 | cpu.SP);
}
template <class Bus>
CULE_HD CULE_FORCE_INLINE uint8_t pull_next(Cpu& cpu, Bus& bus) {
  cpu.SP++;
  return bus.read(0x0100 | cpu.SP);
}

CULE_HD CULE_FORCE_INLINE bool crosses_page(uint16_t a, uint16_t b) {
  return ((a ^ b) & 0xff00) != 0;
}

}  // namespace detail

namespace detail {

CULE_HD constexpr Decoded alu_opcode(Decoded d, uint8_t first, uint8_t second, uint8_t targets,
                                     uint8_t constant = 0) {
  d.kind = Decoded::alu;
  d.first = first;
  d.second = second;
  d.targets = static_cast<uint8_t>(d.targets | targets);
  d.constant = constant;
  return d;
}

CULE_HD constexpr Decoded branch_opcode(Decoded d, uint8_t flag, uint8_t taken_when) {
  d.kind = Decoded::branch;
  d.first = flag;
  d.constant = taken_when;
  return d;
}

//! An opcode's table entry as execute() runs it.
CULE_HD constexpr Decoded decode(Opcode info) {
  using D = Decoded;
  using M = AddressMode;
  const Op op = info.op;
  const M mode = info.mode;
  const Access access = access_of(op);
  Decoded d{op, info.cycles, D::other, 0, 0, 0, 0, 0};

  // The bytes after the opcode (JSR reads its own, around its pushes).
  const bool byte = mode != M::Implied && mode != M::Accumulator && op != Op::JSR;
  const bool word = (mode == M::Absolute || mode == M::AbsoluteX || mode == M::AbsoluteY ||
                     mode == M::Indirect) &&
                    op != Op::JSR;
  uint8_t addressing = 0;
  if (byte) addressing |= D::kByte;
  if (word) addressing |= D::kWord;
  if (mode == M::ZeroX || mode == M::ZeroY || mode == M::IndirectX) {
    addressing |= D::kZeroPageIndex;
  }
  if (mode == M::Indirect || mode == M::IndirectX || mode == M::IndirectY) {
    addressing |= D::kPointer;
  }
  if (mode == M::AbsoluteX || mode == M::AbsoluteY || mode == M::IndirectY) {
    addressing |= D::kIndexAfter;
    if (access == Access::Read) addressing |= D::kPageCrossCycle;
  }
  if (mode == M::ZeroY || mode == M::AbsoluteY || mode == M::IndirectY) addressing |= D::kIndexY;

  // The operand: the byte after the opcode, or memory's.
  const bool memory_operand =
      byte && mode != M::Immediate && mode != M::Relative && mode != M::Indirect;
  if (memory_operand && access != Access::Write) addressing |= D::kRead;
  d.addressing = addressing;
  if (memory_operand && access != Access::Read && op != Op::JMP) d.targets = D::kMemory;

  const uint8_t nz = D::kSetsNZ;
  const uint8_t shifted = mode == M::Accumulator ? D::kA : D::kMemory;
  const uint8_t shift_first = mode == M::Accumulator ? D::a : D::operand;
  switch (op) {
    case Op::LDA: return alu_opcode(d, D::operand, D::pass, D::kA | nz);
    case Op::LDX: return alu_opcode(d, D::operand, D::pass, D::kX | nz);
    case Op::LDY: return alu_opcode(d, D::operand, D::pass, D::kY | nz);
    case Op::LAX: return alu_opcode(d, D::operand, D::pass, D::kA | D::kX | nz);
    case Op::STA: return alu_opcode(d, D::a, D::pass, 0);
    case Op::STX: return alu_opcode(d, D::x, D::pass, 0);
    case Op::STY: return alu_opcode(d, D::y, D::pass, 0);
    case Op::SAX: return alu_opcode(d, D::a_and_x, D::pass, 0);
    case Op::TAX: return alu_opcode(d, D::a, D::pass, D::kX | nz);
    case Op::TAY: return alu_opcode(d, D::a, D::pass, D::kY | nz);
    case Op::TXA: return alu_opcode(d, D::x, D::pass, D::kA | nz);
    case Op::TYA: return alu_opcode(d, D::y, D::pass, D::kA | nz);
    case Op::TSX: return alu_opcode(d, D::sp, D::pass, D::kX | nz);
    case Op::TXS: return alu_opcode(d, D::x, D::pass, D::kSP);
    case Op::AND: return alu_opcode(d, D::a, D::and_, D::kA | nz);
    case Op::ORA: return alu_opcode(d, D::a, D::or_, D::kA | nz);
    case Op::EOR: return alu_opcode(d, D::a, D::xor_, D::kA | nz);
    case Op::ADC:
      return alu_opcode(d, D::a, D::add | D::carry_flag | D::kDecimal,
                        D::kA | nz | D::kSetsC | D::kSetsV);
    case Op::SBC:
      return alu_opcode(d, D::a, D::add | D::carry_flag | D::kInverted | D::kDecimal,
                        D::kA | nz | D::kSetsC | D::kSetsV);
    // A compare adds the inverted operand and 1: the carry is "no borrow".
    case Op::CMP: return alu_opcode(d, D::a, D::add | D::carry_one | D::kInverted, nz | D::kSetsC);
    case Op::CPX: return alu_opcode(d, D::x, D::add | D::carry_one | D::kInverted, nz | D::kSetsC);
    case Op::CPY: return alu_opcode(d, D::y, D::add | D::carry_one | D::kInverted, nz | D::kSetsC);
    case Op::INC: return alu_opcode(d, D::operand, D::add | D::kConstant, nz, 1);
    case Op::DEC: return alu_opcode(d, D::operand, D::add | D::kConstant, nz, 0xff);
    case Op::INX: return alu_opcode(d, D::x, D::add | D::kConstant, D::kX | nz, 1);
    case Op::INY: return alu_opcode(d, D::y, D::add | D::kConstant, D::kY | nz, 1);
    case Op::DEX: return alu_opcode(d, D::x, D::add | D::kConstant, D::kX | nz, 0xff);
    case Op::DEY: return alu_opcode(d, D::y, D::add | D::kConstant, D::kY | nz, 0xff);
    case Op::ASL: return alu_opcode(d, shift_first, D::shift_left, shifted | nz | D::kSetsC);
    case Op::ROL:
      return alu_opcode(d, shift_first, D::shift_left | D::carry_flag, shifted | nz | D::kSetsC);
    case Op::LSR: return alu_opcode(d, shift_first, D::shift_right, shifted | nz | D::kSetsC);
    case Op::ROR:
      return alu_opcode(d, shift_first, D::shift_right | D::carry_flag, shifted | nz | D::kSetsC);
    case Op::NOP: return alu_opcode(d, D::a, D::pass, 0);
    case Op::BPL: return branch_opcode(d, D::n, 0);
    case Op::BMI: return branch_opcode(d, D::n, 1);
    case Op::BVC: return branch_opcode(d, D::v, 0);
    case Op::BVS: return branch_opcode(d, D::v, 1);
    case Op::BCC: return branch_opcode(d, D::c, 0);
    case Op::BCS: return branch_opcode(d, D::c, 1);
    case Op::BNE: return branch_opcode(d, D::z, 0);
    case Op::BEQ: return branch_opcode(d, D::z, 1);
    default: return d;
  }
}

//! The value the ALU starts from (Decoded::First).
CULE_HD CULE_FORCE_INLINE uint8_t alu_first(const Cpu& cpu, uint8_t first, uint8_t operand) {
  using D = Decoded;
  return first == D::a         ? cpu.A
         : first == D::x       ? cpu.X
         : first == D::y       ? cpu.Y
         : first == D::sp      ? cpu.SP
         : first == D::a_and_x ? static_cast<uint8_t>(cpu.A & cpu.X)
                               : operand;
}

// Whether Bus reads code ahead (CodeAhead).
template <class Bus, class = void>
constexpr bool kReadsCodeAhead = false;
template <class Bus>
constexpr bool
    kReadsCodeAhead<Bus, std::void_t<decltype(std::declval<Bus&>().read_code_ahead(uint16_t{}))>> =
        true;

// The byte at the PC, `ahead` where the bus read the code ahead; advances
// the PC.
template <class Bus>
CULE_HD CULE_FORCE_INLINE uint8_t next_code_byte(Cpu& cpu, Bus& bus, const CodeAhead& code,
                                                 uint8_t ahead) {
  if constexpr (kReadsCodeAhead<Bus>) {
    if (code.read) {
      bus.took(cpu.PC++, ahead);
      return ahead;
    }
  }
  return bus.read(cpu.PC++);
}

// Executes one opcode as `d` (decode's) says. Where the caller switches on
// the opcode, `d` is a constant and the compiler folds every decision below
// into code for that opcode alone (the host). Where `d` is read at run time
// (the GPU), consoles running different opcodes side by side, as the lanes
// of a warp do, share the code of the operand bytes, the address, the
// operand read, the ALU and the write-back: only the decimal mode and the
// opcodes of the kind `other` have code apart. Either way the bus sees the
// accesses in the same order.
template <class Bus>
CULE_HD CULE_FORCE_INLINE void execute(Cpu& cpu, Bus& bus, const Decoded d,
                                       const CodeAhead& code = CodeAhead{}) {
  using D = Decoded;
  const uint8_t addressing = d.addressing;
  cpu.cycles += d.cycles;

  uint8_t first = 0, second = 0;
  if (addressing & D::kByte) first = next_code_byte(cpu, bus, code, code.first);
  if (addressing & D::kWord) second = next_code_byte(cpu, bus, code, code.second);

  // The effective address; through a pointer of two bytes for the indirect
  // modes. (zp,X) and (zp),Y read the pointer's high byte from $0100 when
  // the pointer is $FF, as ALE does; JMP ($xxFF) reads it from $xx00, as
  // the 6502 does.
  const uint8_t index = (addressing & D::kIndexY) ? cpu.Y : cpu.X;
  uint16_t address = static_cast<uint16_t>(first | (second << 8));
  if (addressing & D::kZeroPageIndex) address = static_cast<uint8_t>(first + index);
  if (addressing & D::kPointer) {
    const bool in_page = (addressing & D::kWord) && (address & 0xff) == 0xff;
    const uint16_t high =
        in_page ? static_cast<uint16_t>(address & 0xff00) : static_cast<uint16_t>(address + 1);
    const uint16_t low = bus.read(address);
    address = static_cast<uint16_t>(low | (bus.read(high) << 8));
  }
  if (addressing & D::kIndexAfter) {
    const uint16_t base = address;
    address = static_cast<uint16_t>(base + index);
    if (addressing & D::kPageCrossCycle) cpu.cycles += crosses_page(base, address);
  }

  // The operand: memory's, or the byte after the opcode.
  const uint8_t operand = (addressing & D::kRead) ? bus.read(address) : first;

  // What stores and read-modify-writes write to `address`.
  uint8_t result = 0;

  if (d.kind == D::alu) {
    const uint8_t op_bits = d.second;
    const uint8_t x = alu_first(cpu, d.first, operand);
    const uint8_t y = static_cast<uint8_t>(((op_bits & D::kConstant) ? d.constant : operand) ^
                                           ((op_bits & D::kInverted) ? 0xff : 0));
    const uint8_t carry_in = (op_bits & D::carry_flag) ? cpu.C : (op_bits & D::carry_one) ? 1 : 0;
    if ((op_bits & D::kDecimal) && cpu.D) {
      // BCD, as ALE computes it (N, Z and V from the decimal result).
      if (d.op == Op::ADC) {
        adc_decimal(cpu, operand);
      } else {
        sbc_decimal(cpu, operand);
      }
    } else {
      result = alu(cpu, op_bits & 7, x, y, carry_in, d.targets);
    }
  } else if (d.kind == D::branch) {
    const uint8_t flag = d.first == D::n   ? uint8_t(cpu.n_result >> 7)
                         : d.first == D::v ? cpu.V
                         : d.first == D::c ? cpu.C
                                           : uint8_t(cpu.z_result == 0);
    if (flag == d.constant) {
      const uint16_t target = static_cast<uint16_t>(cpu.PC + int8_t(operand));
      cpu.cycles += crosses_page(cpu.PC, target) ? 2 : 1;
      cpu.PC = target;
    }
  } else {
    // The high byte of the target address plus one, for SHA/SHX/SHY/TAS.
    const uint8_t high_plus_one = static_cast<uint8_t>((address >> 8) + 1);
    switch (d.op) {
      case Op::BIT:
        cpu.n_result = operand;
        cpu.z_result = cpu.A & operand;
        cpu.V = (operand >> 6) & 1;
        break;

      // Undocumented read-modify-write combinations
      case Op::SLO: {
        uint8_t value = shift_left(cpu, operand, 0);
        result = value;
        cpu.A |= value;
        set_nz(cpu, cpu.A);
        break;
      }
      case Op::RLA: {
        uint8_t value = shift_left(cpu, operand, cpu.C);
        result = value;
        cpu.A &= value;
        set_nz(cpu, cpu.A);
        break;
      }
      case Op::SRE: {
        uint8_t value = shift_right(cpu, operand, 0);
        result = value;
        cpu.A ^= value;
        set_nz(cpu, cpu.A);
        break;
      }
      case Op::RRA: {
        uint8_t value = shift_right(cpu, operand, cpu.C);
        result = value;
        adc(cpu, value);
        break;
      }
      case Op::DCP: {
        uint8_t value = static_cast<uint8_t>(operand - 1);
        result = value;
        compare(cpu, cpu.A, value);
        break;
      }
      case Op::ISB: {
        uint8_t value = static_cast<uint8_t>(operand + 1);
        result = value;
        sbc(cpu, value);
        break;
      }

      // Undocumented immediate and odd ones
      case Op::ANC:
        cpu.A &= operand;
        set_nz(cpu, cpu.A);
        cpu.C = cpu.A >> 7;
        break;
      case Op::ALR: cpu.A = shift_right(cpu, cpu.A & operand, 0); break;
      case Op::ARR: arr(cpu, operand); break;
      case Op::ANE:
        cpu.A = (cpu.A | 0xee) & cpu.X & operand;
        set_nz(cpu, cpu.A);
        break;
      case Op::LXA:
        cpu.A = cpu.X = (cpu.A | 0xee) & operand;
        set_nz(cpu, cpu.A);
        break;
      case Op::SBX: {
        unsigned difference = unsigned(cpu.A & cpu.X) - operand;
        cpu.X = static_cast<uint8_t>(difference);
        set_nz(cpu, cpu.X);
        cpu.C = !(difference & 0x100);
        break;
      }
      case Op::LAS:
        cpu.A = cpu.X = cpu.SP = cpu.SP & operand;
        set_nz(cpu, cpu.A);
        break;
      case Op::SHA: result = cpu.A & cpu.X & high_plus_one; break;
      case Op::SHX: result = cpu.X & high_plus_one; break;
      case Op::SHY: result = cpu.Y & high_plus_one; break;
      case Op::TAS:
        cpu.SP = cpu.A & cpu.X;
        result = cpu.A & cpu.X & high_plus_one;
        break;
      case Op::JAM: cpu.jammed = 1; break;

      // Flags
      case Op::CLC: cpu.C = 0; break;
      case Op::SEC: cpu.C = 1; break;
      case Op::CLD: cpu.D = 0; break;
      case Op::SED: cpu.D = 1; break;
      case Op::CLI: cpu.I = 0; break;
      case Op::SEI: cpu.I = 1; break;
      case Op::CLV: cpu.V = 0; break;

      // Jumps, calls and the stack
      case Op::JMP: cpu.PC = address; break;
      case Op::JSR: {
        uint8_t low = bus.read(cpu.PC++);
        bus.read(0x0100 | cpu.SP);
        // pushes the address of its own last byte; RTS adds the missing 1
        push(cpu, bus, cpu.PC >> 8);
        push(cpu, bus, cpu.PC & 0xff);
        cpu.PC = static_cast<uint16_t>(low | (bus.read(cpu.PC) << 8));
        break;
      }
      case Op::RTS: {
        uint16_t low = pull_first(cpu, bus);
        uint16_t high = pull_next(cpu, bus);
        cpu.PC = static_cast<uint16_t>(low | (high << 8));
        bus.read(cpu.PC++);
        break;
      }
      case Op::BRK: {
        bus.read(cpu.PC++);
        push(cpu, bus, cpu.PC >> 8);
        push(cpu, bus, cpu.PC & 0xff);
        push(cpu, bus, cpu_status(cpu));
        cpu.I = 1;
        uint16_t low = bus.read(0xfffe);
        cpu.PC = static_cast<uint16_t>(low | (bus.read(0xffff) << 8));
        break;
      }
      case Op::RTI: {
        cpu_set_status(cpu, pull_first(cpu, bus));
        uint16_t low = pull_next(cpu, bus);
        uint16_t high = pull_next(cpu, bus);
        cpu.PC = static_cast<uint16_t>(low | (high << 8));
        break;
      }
      case Op::PHA: push(cpu, bus, cpu.A); break;
      case Op::PHP: push(cpu, bus, cpu_status(cpu)); break;
      case Op::PLA:
        cpu.A = pull_first(cpu, bus);
        set_nz(cpu, cpu.A);
        break;
      case Op::PLP: cpu_set_status(cpu, pull_first(cpu, bus)); break;
      default: break;  // the ALU's and the branches' opcodes
    }
  }
  if (d.targets & D::kMemory) bus.write(address, result);
}

}  // namespace detail

// ---------------------------------------------------------------------------
// Public entry points

//! Puts the registers in ALE's power-on state and loads PC from $FFFC.
//! Leaves cpu.cycles alone: the caller owns the time base.
template <class Bus>
CULE_HD inline void cpu_reset(Cpu& cpu, Bus& bus) {
  uint32_t cycles = cpu.cycles;
  cpu = Cpu{};
  cpu.cycles = cycles;
  cpu.SP = 0xff;
  cpu.z_result = 1;  // Z clear
  uint16_t low = bus.read(0xfffc);
  cpu.PC = static_cast<uint16_t>(low | (bus.read(0xfffd) << 8));
}

// clang-format off
#define CULE_OPCODE_4(X, n) X(n) X(n + 1) X(n + 2) X(n + 3)
#define CULE_OPCODE_16(X, n) \
  CULE_OPCODE_4(X, n) CULE_OPCODE_4(X, n + 4) CULE_OPCODE_4(X, n + 8) CULE_OPCODE_4(X, n + 12)
#define CULE_OPCODE_256(X) \
  CULE_OPCODE_16(X, 0x00) CULE_OPCODE_16(X, 0x10) CULE_OPCODE_16(X, 0x20) \
  CULE_OPCODE_16(X, 0x30) CULE_OPCODE_16(X, 0x40) CULE_OPCODE_16(X, 0x50) \
  CULE_OPCODE_16(X, 0x60) CULE_OPCODE_16(X, 0x70) CULE_OPCODE_16(X, 0x80) \
  CULE_OPCODE_16(X, 0x90) CULE_OPCODE_16(X, 0xa0) CULE_OPCODE_16(X, 0xb0) \
  CULE_OPCODE_16(X, 0xc0) CULE_OPCODE_16(X, 0xd0) CULE_OPCODE_16(X, 0xe0) \
  CULE_OPCODE_16(X, 0xf0)
// clang-format on

//! Every opcode's Decoded, in opcode order.
#define CULE_DECODED(n) detail::decode(kOpcodes[n]),
constexpr Decoded kDecoded[256] = {CULE_OPCODE_256(CULE_DECODED)};
#undef CULE_DECODED

namespace detail {

//! A Decoded as one 64-bit word (kPackedDecoded), and back.
CULE_HD constexpr uint64_t pack_decoded(Decoded d) {
  return uint64_t(d.op) | uint64_t(d.cycles) << 8 | uint64_t(d.kind) << 16 |
         uint64_t(d.addressing) << 24 | uint64_t(d.first) << 32 | uint64_t(d.second) << 40 |
         uint64_t(d.targets) << 48 | uint64_t(d.constant) << 56;
}
CULE_HD CULE_FORCE_INLINE constexpr Decoded unpack_decoded(uint64_t w) {
  return Decoded{static_cast<Op>(w & 0xff), uint8_t(w >> 8),  uint8_t(w >> 16), uint8_t(w >> 24),
                 uint8_t(w >> 32),          uint8_t(w >> 40), uint8_t(w >> 48), uint8_t(w >> 56)};
}

// The table decoded_at_run_time reads, one 64-bit word an opcode: on the
// GPU in global memory through the read-only cache (a warp's lanes index it
// at different opcodes, which constant memory would serialise). The host's
// decoded step reads the same words, so its tests check the packing too.
#define CULE_PACKED_DECODED(n) pack_decoded(kDecoded[n]),
constexpr uint64_t kPackedDecoded[256] = {CULE_OPCODE_256(CULE_PACKED_DECODED)};
#if defined(__CUDACC__)
static __device__ const uint64_t kDevicePackedDecoded[256] = {CULE_OPCODE_256(CULE_PACKED_DECODED)};
#endif
#undef CULE_PACKED_DECODED

//! The Decoded of `opcode`, read at run time.
CULE_HD CULE_FORCE_INLINE Decoded decoded_at_run_time(uint8_t opcode) {
#if defined(__CUDA_ARCH__)
  return unpack_decoded(__ldg(&kDevicePackedDecoded[opcode]));
#else
  return unpack_decoded(kPackedDecoded[opcode]);
#endif
}

}  // namespace detail

//! Code predecoded: the three bytes a CodeAhead holds and the opcode's
//! packed table entry, laid out for one 16-byte load. A bus may keep one
//! for each address of its ROM (the console: PredecodedRom) and hand it to
//! the step with code_ahead.
struct alignas(16) PredecodedCode {
  uint64_t decoded;  //!< kPackedDecoded[opcode]
  uint8_t opcode, first, second;
  uint8_t valid;  //!< 0: the bytes here are not all read ahead; the step reads them itself
  uint32_t unused;
};
static_assert(sizeof(PredecodedCode) == 16 && offsetof(PredecodedCode, opcode) == 8 &&
                  offsetof(PredecodedCode, valid) == 11,
              "code_ahead loads a PredecodedCode as four 32-bit words");

//! The PredecodedCode of three code bytes (built on the host, once per ROM).
constexpr PredecodedCode predecode(uint8_t opcode, uint8_t first, uint8_t second) {
  return PredecodedCode{detail::kPackedDecoded[opcode], opcode, first, second, 1, 0};
}

//! The CodeAhead of the code at `code`: on the GPU one 16-byte load through
//! the read-only cache.
CULE_HD CULE_FORCE_INLINE CodeAhead code_ahead(const PredecodedCode* code) {
#if defined(__CUDA_ARCH__)
  const uint4 w = __ldg(reinterpret_cast<const uint4*>(code));
  return CodeAhead{(w.z >> 24) != 0, uint8_t(w.z), uint8_t(w.z >> 8), uint8_t(w.z >> 16),
                   w.x | uint64_t(w.y) << 32};
#else
  return CodeAhead{code->valid != 0, code->opcode, code->first, code->second, code->decoded};
#endif
}

//! Runs one instruction with code compiled for each opcode (a switch over
//! the 256). A jammed core does nothing until cpu_reset.
template <class Bus>
CULE_HD CULE_FORCE_INLINE void cpu_step_per_opcode(Cpu& cpu, Bus& bus) {
  if (cpu.jammed) return;
  const uint8_t opcode = bus.read(cpu.PC++);
#define CULE_OPCODE_CASE(n) \
  case n: detail::execute(cpu, bus, kDecoded[n]); break;
  switch (opcode) { CULE_OPCODE_256(CULE_OPCODE_CASE) }
#undef CULE_OPCODE_CASE
}

//! Runs one instruction with code shared by all opcodes, which reads the
//! opcode's table entry at run time, or takes the code and the entry that
//! the bus read ahead where it can (CodeAhead). The same result as
//! cpu_step_per_opcode, access for access.
template <class Bus>
CULE_HD CULE_FORCE_INLINE void cpu_step_decoded(Cpu& cpu, Bus& bus) {
  if (cpu.jammed) return;
  CodeAhead code{};
  if constexpr (detail::kReadsCodeAhead<Bus>) code = bus.read_code_ahead(cpu.PC);
  const uint8_t opcode = detail::next_code_byte(cpu, bus, code, code.opcode);
  const Decoded d =
      code.read ? detail::unpack_decoded(code.decoded) : detail::decoded_at_run_time(opcode);
  detail::execute(cpu, bus, d, code);
}

//! Whether cpu_step runs the decoded step: on the GPU, where the lanes of
//! a warp run different opcodes; per opcode on the host, where that is
//! fastest.
#if defined(__CUDA_ARCH__)
constexpr bool kCpuStepDecoded = true;
#else
constexpr bool kCpuStepDecoded = false;
#endif

//! Runs one instruction, by default the way this processor runs them
//! fastest (kCpuStepDecoded).
template <bool kDecoded = kCpuStepDecoded, class Bus>
CULE_HD CULE_FORCE_INLINE void cpu_step(Cpu& cpu, Bus& bus) {
  if constexpr (kDecoded) {
    cpu_step_decoded(cpu, bus);
  } else {
    cpu_step_per_opcode(cpu, bus);
  }
}

#undef CULE_OPCODE_256
#undef CULE_OPCODE_16
#undef CULE_OPCODE_4

//! How a run of cpu_run_until_trap ended.
struct CpuRunResult {
  uint16_t pc = 0;            //!< program counter at the end
  uint64_t instructions = 0;  //!< instructions executed
  uint64_t cycles = 0;        //!< processor cycles, with ALE's timing
  bool jammed = false;        //!< a JAM opcode halted the core
  bool trapped = false;       //!< stopped early: an instruction left the PC where it was
};

//! Runs up to max_instructions instructions, stopping early on a JAM or when
//! an instruction leaves the PC unchanged (a jump or branch to itself, the
//! way test programs report their result).
template <class Bus>
CULE_HD inline CpuRunResult cpu_run_until_trap(Cpu& cpu, Bus& bus, uint64_t max_instructions) {
  // A local copy lets the compiler keep registers out of memory the bus
  // might alias.
  Cpu local = cpu;
  CpuRunResult result;
  uint32_t cycles_before = local.cycles;
  while (result.instructions < max_instructions && !local.jammed) {
    const uint16_t pc = local.PC;
    cpu_step(local, bus);
    ++result.instructions;
    if (local.PC == pc) {
      result.trapped = !local.jammed;
      break;
    }
    // cpu.cycles is 32 bits: fold it into the 64-bit total well before it wraps.
    if ((result.instructions & 0xfffff) == 0) {
      result.cycles += uint32_t(local.cycles - cycles_before);
      cycles_before = local.cycles;
    }
  }
  result.cycles += uint32_t(local.cycles - cycles_before);
  result.pc = local.PC;
  result.jammed = local.jammed != 0;
  cpu = local;
  return result;
}

}  // namespace cule
