// Results, flags and addressing of the 6502 core's instructions: every
// undocumented NMOS opcode in every addressing mode it has, decimal and binary
// ADC/SBC, the stack instructions, JMP (ind) and cpu_reset.
//
// Every expected value comes from the small reference formulas below, written
// from the published NMOS behaviour (MOS datasheet, 64doc.txt, "NMOS 6510
// Unintended Opcodes"), or typed from those documents. Where the core follows
// ALE (Stella 2.x "M6502Low") instead of the chip on purpose, the reference
// follows ALE too and the spot is marked "ALE:".
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu_test_machine.hpp"
#include "kernels/flat_memory.hpp"
#include "kernels/m6502.hpp"

namespace {

using namespace cule::testing;

// ---------------------------------------------------------------------------
// Registers as the tests see them: P is the packed status (bits 4, 5 read 1).

struct Regs {
  uint16_t pc = 0;
  uint8_t a = 0, x = 0, y = 0, sp = 0, p = 0;
};

bool same(const Regs& l, const Regs& r) {
  return l.pc == r.pc && l.a == r.a && l.x == r.x && l.y == r.y && l.sp == r.sp && l.p == r.p;
}

std::string describe(const Regs& r) {
  return "PC=" + hx(r.pc, 4) + " A=" + hx(r.a, 2) + " X=" + hx(r.x, 2) + " Y=" + hx(r.y, 2) +
         " SP=" + hx(r.sp, 2) + " P=" + hx(r.p, 2);
}

Regs regs_of(const cule::Cpu& c) {
  Regs r;
  r.pc = c.PC;
  r.a = c.A;
  r.x = c.X;
  r.y = c.Y;
  r.sp = c.SP;
  r.p = cule::cpu_status(c);
  return r;
}

void load(cule::Cpu& c, const Regs& r) {
  c.PC = r.pc;
  c.A = r.a;
  c.X = r.x;
  c.Y = r.y;
  c.SP = r.sp;
  cule::cpu_set_status(c, r.p);
  c.jammed = 0;
}

// ---------------------------------------------------------------------------
// Reference ALU, from the published behaviour.

uint8_t flag(uint8_t p, uint8_t f, bool on) { return on ? uint8_t(p | f) : uint8_t(p & ~f); }
uint8_t nz(uint8_t p, uint8_t v) { return flag(flag(p, kN, (v & 0x80) != 0), kZ, v == 0); }

bool is_bcd(uint8_t v) { return (v & 0x0F) < 10 && (v >> 4) < 10; }
int from_bcd(uint8_t v) { return (v >> 4) * 10 + (v & 0x0F); }
uint8_t to_bcd(int n) { return uint8_t((((n / 10) % 10) << 4) | (n % 10)); }

// ALE: in decimal mode N and Z come from the decimal result and
// V = ((oldA ^ A) & $80) && ((A ^ operand) & $80), A being the decimal result.
bool ale_decimal_v(uint8_t old_a, uint8_t result, uint8_t operand) {
  return ((old_a ^ result) & 0x80) != 0 && ((result ^ operand) & 0x80) != 0;
}

// ADC. Binary: sum with carry, C = carry out, V = both operands of one sign and
// the result of the other. Decimal (valid BCD operands only): the decimal sum.
void adc(Regs& r, uint8_t m) {
  const int c = r.p & kC;
  if (!(r.p & kD)) {
    const int sum = r.a + m + c;
    const uint8_t res = uint8_t(sum);
    r.p = flag(r.p, kC, sum > 0xFF);
    r.p = flag(r.p, kV, ((r.a ^ res) & (m ^ res) & 0x80) != 0);
    r.a = res;
  } else {
    const int sum = from_bcd(r.a) + from_bcd(m) + c;
    const uint8_t res = to_bcd(sum % 100);
    r.p = flag(r.p, kC, sum > 99);
    r.p = flag(r.p, kV, ale_decimal_v(r.a, res, m));
    r.a = res;
  }
  r.p = nz(r.p, r.a);
}

// SBC. Binary: A - M - borrow, C = no borrow, V = operands of different signs and
// the result's sign differs from A's. Decimal (valid BCD only): the decimal
// difference modulo 100, C = no borrow.
void sbc(Regs& r, uint8_t m) {
  const int borrow = (r.p & kC) ? 0 : 1;
  if (!(r.p & kD)) {
    const int diff = r.a - m - borrow;
    const uint8_t res = uint8_t(diff);
    r.p = flag(r.p, kC, diff >= 0);
    r.p = flag(r.p, kV, ((r.a ^ m) & (r.a ^ res) & 0x80) != 0);
    r.a = res;
  } else {
    int diff = from_bcd(r.a) - from_bcd(m) - borrow;
    r.p = flag(r.p, kC, diff >= 0);
    if (diff < 0) diff += 100;
    const uint8_t res = to_bcd(diff);
    r.p = flag(r.p, kV, ale_decimal_v(r.a, res, m));
    r.a = res;
  }
  r.p = nz(r.p, r.a);
}

void compare(Regs& r, uint8_t reg, uint8_t m) {
  r.p = flag(r.p, kC, reg >= m);
  r.p = nz(r.p, uint8_t(reg - m));
}

// What an instruction should do: the registers after it (PC is filled in by
// the driver), whether it writes the effective address and with what, and
// whether it must read the effective address.
struct Outcome {
  Regs r;
  bool writes = false;
  uint8_t stored = 0;
  bool reads = true;
};

// m is the byte at the effective address (or the immediate byte); ea is the
// effective address.
using Ref = Outcome (*)(Regs, uint8_t, uint16_t);

Outcome rmw(const Regs& r, uint8_t stored) { return Outcome{r, true, stored, true}; }
Outcome store(const Regs& r, uint8_t stored) { return Outcome{r, true, stored, false}; }
uint8_t high_plus_one(uint16_t ea) { return uint8_t((ea >> 8) + 1); }

Outcome o_nop(Regs r, uint8_t, uint16_t) { return Outcome{r}; }
Outcome o_lax(Regs r, uint8_t m, uint16_t) {  // A = X = M
  r.a = r.x = m;
  r.p = nz(r.p, m);
  return Outcome{r};
}
Outcome o_sax(Regs r, uint8_t, uint16_t) { return store(r, uint8_t(r.a & r.x)); }
Outcome o_dcp(Regs r, uint8_t m, uint16_t) {  // DEC M, CMP M
  const uint8_t v = uint8_t(m - 1);
  compare(r, r.a, v);
  return rmw(r, v);
}
Outcome o_isb(Regs r, uint8_t m, uint16_t) {  // INC M, SBC M
  const uint8_t v = uint8_t(m + 1);
  sbc(r, v);
  return rmw(r, v);
}
Outcome o_slo(Regs r, uint8_t m, uint16_t) {  // ASL M, ORA M
  const uint8_t v = uint8_t(m << 1);
  r.p = flag(r.p, kC, (m & 0x80) != 0);
  r.a = uint8_t(r.a | v);
  r.p = nz(r.p, r.a);
  return rmw(r, v);
}
Outcome o_rla(Regs r, uint8_t m, uint16_t) {  // ROL M, AND M
  const uint8_t v = uint8_t((m << 1) | (r.p & kC));
  r.p = flag(r.p, kC, (m & 0x80) != 0);
  r.a = uint8_t(r.a & v);
  r.p = nz(r.p, r.a);
  return rmw(r, v);
}
Outcome o_sre(Regs r, uint8_t m, uint16_t) {  // LSR M, EOR M
  const uint8_t v = uint8_t(m >> 1);
  r.p = flag(r.p, kC, (m & 0x01) != 0);
  r.a = uint8_t(r.a ^ v);
  r.p = nz(r.p, r.a);
  return rmw(r, v);
}
Outcome o_rra(Regs r, uint8_t m, uint16_t) {  // ROR M, ADC M (with the carry out of ROR)
  const uint8_t v = uint8_t((m >> 1) | ((r.p & kC) ? 0x80 : 0));
  r.p = flag(r.p, kC, (m & 0x01) != 0);
  adc(r, v);
  return rmw(r, v);
}
Outcome o_anc(Regs r, uint8_t m, uint16_t) {  // AND #, C = N
  r.a = uint8_t(r.a & m);
  r.p = nz(r.p, r.a);
  r.p = flag(r.p, kC, (r.a & 0x80) != 0);
  return Outcome{r};
}
Outcome o_alr(Regs r, uint8_t m, uint16_t) {  // AND #, LSR A
  const uint8_t t = uint8_t(r.a & m);
  r.p = flag(r.p, kC, (t & 0x01) != 0);
  r.a = uint8_t(t >> 1);
  r.p = nz(r.p, r.a);
  return Outcome{r};
}
Outcome o_arr(Regs r, uint8_t m, uint16_t) {  // AND #, ROR A, own flags
  const uint8_t t = uint8_t(r.a & m);
  const bool c_in = (r.p & kC) != 0;
  uint8_t res = uint8_t((t >> 1) | (c_in ? 0x80 : 0));
  if (!(r.p & kD)) {
    r.p = nz(r.p, res);
    r.p = flag(r.p, kC, (res & 0x40) != 0);
    r.p = flag(r.p, kV, (((res >> 6) ^ (res >> 5)) & 1) != 0);
  } else {
    // 64doc: N = the old carry, Z from the rotated value, V = bit 6 changed
    // by the rotation, then a BCD fix-up of each nibble; C = the high fix-up.
    r.p = flag(r.p, kN, c_in);
    r.p = flag(r.p, kZ, res == 0);
    r.p = flag(r.p, kV, ((t ^ res) & 0x40) != 0);
    if ((t & 0x0F) + (t & 0x01) > 0x05) res = uint8_t((res & 0xF0) | ((res + 0x06) & 0x0F));
    const bool high_fix = (t & 0xF0) + (t & 0x10) > 0x50;
    if (high_fix) res = uint8_t(res + 0x60);
    r.p = flag(r.p, kC, high_fix);
  }
  r.a = res;
  return Outcome{r};
}
Outcome o_sbx(Regs r, uint8_t m, uint16_t) {  // X = (A & X) - #, C = no borrow, D ignored
  const uint8_t t = uint8_t(r.a & r.x);
  r.p = flag(r.p, kC, t >= m);
  r.x = uint8_t(t - m);
  r.p = nz(r.p, r.x);
  return Outcome{r};
}
Outcome o_sbc(Regs r, uint8_t m, uint16_t) {
  sbc(r, m);
  return Outcome{r};
}
Outcome o_ane(Regs r, uint8_t m, uint16_t) {  // ALE: magic constant $EE
  r.a = uint8_t((r.a | 0xEE) & r.x & m);
  r.p = nz(r.p, r.a);
  return Outcome{r};
}
Outcome o_lxa(Regs r, uint8_t m, uint16_t) {  // ALE: magic constant $EE
  r.a = r.x = uint8_t((r.a | 0xEE) & m);
  r.p = nz(r.p, r.a);
  return Outcome{r};
}
Outcome o_las(Regs r, uint8_t m, uint16_t) {  // A = X = SP = M & SP
  r.a = r.x = r.sp = uint8_t(m & r.sp);
  r.p = nz(r.p, r.a);
  return Outcome{r};
}
// ALE: SHA/SHX/SHY/TAS AND with (high byte of the final address + 1), and a
// page cross does not change the address written.
Outcome o_sha(Regs r, uint8_t, uint16_t ea) {
  return store(r, uint8_t(r.a & r.x & high_plus_one(ea)));
}
Outcome o_shx(Regs r, uint8_t, uint16_t ea) { return store(r, uint8_t(r.x & high_plus_one(ea))); }
Outcome o_shy(Regs r, uint8_t, uint16_t ea) { return store(r, uint8_t(r.y & high_plus_one(ea))); }
Outcome o_tas(Regs r, uint8_t, uint16_t ea) {
  r.sp = uint8_t(r.a & r.x);
  return store(r, uint8_t(r.sp & high_plus_one(ea)));
}

// ---------------------------------------------------------------------------
// Addressing modes: where the operand goes, and the addresses a wrong address
// computation would hit ("decoys", which must stay untouched and are loaded
// with the complement of the operand so that reading them shows).

enum class Mode { Imp, Imm, Zp, Zpx, Zpy, Abs, Abx, Aby, Izx, Izy };

const char* name(Mode m) {
  switch (m) {
    case Mode::Imp: return "imp";
    case Mode::Imm: return "#";
    case Mode::Zp: return "zp";
    case Mode::Zpx: return "zp,X";
    case Mode::Zpy: return "zp,Y";
    case Mode::Abs: return "abs";
    case Mode::Abx: return "abs,X";
    case Mode::Aby: return "abs,Y";
    case Mode::Izx: return "(zp,X)";
    case Mode::Izy: return "(zp),Y";
  }
  return "?";
}

int length(Mode m) {
  switch (m) {
    case Mode::Imp: return 1;
    case Mode::Abs:
    case Mode::Abx:
    case Mode::Aby: return 3;
    default: return 2;
  }
}

int variant_count(Mode m) {
  switch (m) {
    case Mode::Zp:
    case Mode::Zpx:
    case Mode::Zpy:
    case Mode::Abs: return 2;
    case Mode::Abx:
    case Mode::Aby:
    case Mode::Izx:
    case Mode::Izy: return 3;
    default: return 1;
  }
}

struct Placement {
  uint8_t b1 = 0, b2 = 0;  // operand bytes
  int x = -1, y = -1;      // index register values the mode needs (-1: free)
  uint16_t ea = 0;
  std::vector<uint16_t> decoys;
};

// Writes any pointer the mode needs into ram. Variant 0 is the plain case,
// 1 wraps page zero / crosses a page, 2 crosses $FFFF (abs,X/Y) or puts the
// pointer at $FF ((zp,X), (zp),Y: ALE reads its high byte from $0100).
Placement place(std::vector<uint8_t>& ram, Mode mode, int v) {
  Placement pl;
  auto decoy = [&pl](unsigned a) {
    if (uint16_t(a) != pl.ea) pl.decoys.push_back(uint16_t(a));
  };
  switch (mode) {
    case Mode::Imp:
    case Mode::Imm: break;
    case Mode::Zp:
      pl.b1 = v ? 0xFF : 0x80;
      pl.ea = pl.b1;
      break;
    case Mode::Zpx:
    case Mode::Zpy: {
      const uint8_t idx = v ? 0x24 : 0x05;
      pl.b1 = v ? 0xF0 : 0x40;
      (mode == Mode::Zpx ? pl.x : pl.y) = idx;
      pl.ea = uint8_t(pl.b1 + idx);  // stays in page zero
      decoy(pl.b1 + idx);            // carried into page one
      decoy(pl.b1);                  // index ignored
      break;
    }
    case Mode::Abs:
      pl.b1 = v ? 0xFF : 0x34;
      pl.b2 = v ? 0x37 : 0x12;
      pl.ea = uint16_t(pl.b1 | pl.b2 << 8);
      break;
    case Mode::Abx:
    case Mode::Aby: {
      static const uint16_t kBase[3] = {0x1220, 0x12F0, 0xFFF0};
      const uint16_t base = kBase[v];
      const uint8_t idx = v ? 0x24 : 0x10;
      pl.b1 = uint8_t(base);
      pl.b2 = uint8_t(base >> 8);
      (mode == Mode::Abx ? pl.x : pl.y) = idx;
      pl.ea = uint16_t(base + idx);
      decoy((base & 0xFF00) | ((base + idx) & 0xFF));  // carry into the high byte lost
      decoy(base);                                     // index ignored
      break;
    }
    case Mode::Izx: {
      // Pointer at (b1 + X) & $FF; decoy pointers where a wrong computation looks.
      if (v == 0) {
        pl.b1 = 0x40;
        pl.x = 0x06;
        ram[0x46] = 0x34, ram[0x47] = 0x12, pl.ea = 0x1234;
        ram[0x40] = 0x45, ram[0x41] = 0x23, decoy(0x2345);  // index ignored
      } else if (v == 1) {
        pl.b1 = 0xF0;
        pl.x = 0x24;
        ram[0x14] = 0x78, ram[0x15] = 0x13, pl.ea = 0x1378;
        ram[0x114] = 0x46, ram[0x115] = 0x23, decoy(0x2346);  // no page-zero wrap
        ram[0xF0] = 0x47, ram[0xF1] = 0x23, decoy(0x2347);    // index ignored
      } else {
        // ALE: pointer $FF takes its high byte from $0100 (the chip: from $00).
        pl.b1 = 0xF0;
        pl.x = 0x0F;
        ram[0xFF] = 0x9A, ram[0x100] = 0x15, pl.ea = 0x159A;
        ram[0x00] = 0x24, decoy(0x249A);
        ram[0xF0] = 0x47, ram[0xF1] = 0x23, decoy(0x2347);
      }
      break;
    }
    case Mode::Izy: {
      if (v == 0) {
        pl.b1 = 0x40;
        pl.y = 0x10;
        ram[0x40] = 0x20, ram[0x41] = 0x12, pl.ea = 0x1230;
        decoy(0x1220);  // index ignored
      } else if (v == 1) {
        pl.b1 = 0x40;
        pl.y = 0x24;
        ram[0x40] = 0xF0, ram[0x41] = 0x12, pl.ea = 0x1314;
        decoy(0x1214);  // carry lost
        decoy(0x12F0);  // index ignored
      } else {
        // ALE: pointer $FF takes its high byte from $0100 (the chip: from $00).
        pl.b1 = 0xFF;
        pl.y = 0x24;
        ram[0xFF] = 0xF0, ram[0x100] = 0x15, pl.ea = 0x1614;
        ram[0x00] = 0x24, decoy(0x2514);
        decoy(0x1514);  // carry lost
      }
      break;
    }
  }
  return pl;
}

// Runs `opcode` once at kPc with operand m at the placement's effective address
// (or as the immediate byte) and compares registers, flags, memory and the
// accesses made with ref. Returns "" when all agree, else what differed.
std::string run_one(Machine& mc, uint8_t opcode, Mode mode, const Placement& pl, Regs in, uint8_t m,
                    Ref ref) {
  std::vector<uint8_t>& ram = mc.ram;
  const bool has_ea = mode != Mode::Imp && mode != Mode::Imm;
  ram[kPc] = opcode;
  ram[kPc + 1] = mode == Mode::Imm ? m : pl.b1;
  ram[kPc + 2] = pl.b2;
  if (pl.x >= 0) in.x = uint8_t(pl.x);
  if (pl.y >= 0) in.y = uint8_t(pl.y);
  in.pc = kPc;
  in.p = uint8_t(in.p | kB | kU);
  if (has_ea) {
    ram[pl.ea] = m;
    for (uint16_t d : pl.decoys) ram[d] = uint8_t(~m);
  }
  load(mc.cpu, in);
  Outcome want = ref(in, m, pl.ea);
  want.r.pc = uint16_t(kPc + length(mode));
  mc.step();

  const Regs got = regs_of(mc.cpu);
  bool wrote = false, stray = false, read_ea = false;
  for (const Access& acc : mc.log) {
    if (acc.write) {
      wrote = true;
      if (!has_ea || acc.address != pl.ea) stray = true;
    } else if (has_ea && acc.address == pl.ea) {
      read_ea = true;
    }
  }
  bool decoys_ok = true;
  for (uint16_t d : pl.decoys) decoys_ok = decoys_ok && ram[d] == uint8_t(~m);
  const bool regs_ok = same(got, want.r);
  const bool write_ok = wrote == want.writes && (!want.writes || ram[pl.ea] == want.stored);
  const bool read_ok = !has_ea || !want.reads || read_ea;
  if (regs_ok && write_ok && !stray && read_ok && decoys_ok && !mc.cpu.jammed) return {};

  std::string err = "opcode " + hx(opcode, 2) + " " + name(mode);
  if (has_ea) err += " ea=" + hx(pl.ea, 4);
  err += " M=" + hx(m, 2) + " in: " + describe(in) + "\n";
  if (!regs_ok) err += "  regs " + describe(got) + "  want " + describe(want.r) + "\n";
  if (!write_ok) {
    err += want.writes ? "  wanted store " + hx(want.stored, 2) : std::string("  wanted no store");
    err += has_ea ? ", memory at ea " + hx(ram[pl.ea], 2) : std::string();
    err += wrote ? " (a write happened)\n" : " (no write happened)\n";
  }
  if (stray) {
    err += "  writes to:";
    for (const Access& acc : mc.log)
      if (acc.write) err += " " + hx(acc.address, 4) + "=" + hx(acc.value, 2);
    err += "\n";
  }
  if (!read_ok) err += "  effective address never read\n";
  if (!decoys_ok) err += "  a decoy address (wrong address computation) was changed\n";
  if (mc.cpu.jammed) err += "  core jammed\n";
  return err;
}

// Counts cases and reports the first few failures of a sweep.
struct Checker {
  long cases = 0;
  long fails = 0;
  void operator()(const std::string& err) {
    ++cases;
    if (!err.empty() && ++fails <= 8) ADD_FAILURE() << err;
  }
};

#define EXPECT_SWEEP_OK(chk)                                        \
  do {                                                              \
    EXPECT_EQ((chk).fails, 0) << "failures out of " << (chk).cases; \
    ::testing::Test::RecordProperty("cases", int((chk).cases));     \
  } while (0)

struct Form {
  uint8_t opcode;
  Mode mode;
};

struct OpSpec {
  const char* name;
  Ref ref;
  bool binary_only;  // reference decimal arithmetic holds for valid BCD only
  std::vector<Form> forms;
};

// The undocumented opcodes and their addressing modes, from the NMOS matrix.
const std::vector<OpSpec>& undocumented() {
  using M = Mode;
  static const std::vector<OpSpec> ops = {
      {"LAX",
       o_lax,
       false,
       {{0xA7, M::Zp},
        {0xB7, M::Zpy},
        {0xAF, M::Abs},
        {0xBF, M::Aby},
        {0xA3, M::Izx},
        {0xB3, M::Izy}}},
      {"SAX", o_sax, false, {{0x87, M::Zp}, {0x97, M::Zpy}, {0x8F, M::Abs}, {0x83, M::Izx}}},
      {"DCP",
       o_dcp,
       false,
       {{0xC7, M::Zp},
        {0xD7, M::Zpx},
        {0xCF, M::Abs},
        {0xDF, M::Abx},
        {0xDB, M::Aby},
        {0xC3, M::Izx},
        {0xD3, M::Izy}}},
      {"ISB",
       o_isb,
       true,
       {{0xE7, M::Zp},
        {0xF7, M::Zpx},
        {0xEF, M::Abs},
        {0xFF, M::Abx},
        {0xFB, M::Aby},
        {0xE3, M::Izx},
        {0xF3, M::Izy}}},
      {"SLO",
       o_slo,
       false,
       {{0x07, M::Zp},
        {0x17, M::Zpx},
        {0x0F, M::Abs},
        {0x1F, M::Abx},
        {0x1B, M::Aby},
        {0x03, M::Izx},
        {0x13, M::Izy}}},
      {"RLA",
       o_rla,
       false,
       {{0x27, M::Zp},
        {0x37, M::Zpx},
        {0x2F, M::Abs},
        {0x3F, M::Abx},
        {0x3B, M::Aby},
        {0x23, M::Izx},
        {0x33, M::Izy}}},
      {"SRE",
       o_sre,
       false,
       {{0x47, M::Zp},
        {0x57, M::Zpx},
        {0x4F, M::Abs},
        {0x5F, M::Abx},
        {0x5B, M::Aby},
        {0x43, M::Izx},
        {0x53, M::Izy}}},
      {"RRA",
       o_rra,
       true,
       {{0x67, M::Zp},
        {0x77, M::Zpx},
        {0x6F, M::Abs},
        {0x7F, M::Abx},
        {0x7B, M::Aby},
        {0x63, M::Izx},
        {0x73, M::Izy}}},
      {"ANC", o_anc, false, {{0x0B, M::Imm}, {0x2B, M::Imm}}},
      {"ALR", o_alr, false, {{0x4B, M::Imm}}},
      {"ARR", o_arr, false, {{0x6B, M::Imm}}},
      {"SBX", o_sbx, false, {{0xCB, M::Imm}}},
      {"SBC", o_sbc, true, {{0xEB, M::Imm}}},
      {"ANE", o_ane, false, {{0x8B, M::Imm}}},
      {"LXA", o_lxa, false, {{0xAB, M::Imm}}},
      {"LAS", o_las, false, {{0xBB, M::Aby}}},
      {"SHA", o_sha, false, {{0x93, M::Izy}, {0x9F, M::Aby}}},
      {"SHX", o_shx, false, {{0x9E, M::Aby}}},
      {"SHY", o_shy, false, {{0x9C, M::Abx}}},
      {"TAS", o_tas, false, {{0x9B, M::Aby}}},
  };
  return ops;
}

const OpSpec& spec(const char* op_name) {
  for (const OpSpec& s : undocumented())
    if (std::string(s.name) == op_name) return s;
  throw std::runtime_error(op_name);
}

Regs make_regs(uint8_t a, uint8_t x, uint8_t y, uint8_t sp, uint8_t p) {
  Regs r;
  r.a = a;
  r.x = x;
  r.y = y;
  r.sp = sp;
  r.p = p;
  return r;
}

// Extra input flags cycled through a sweep, so that flags an instruction must
// leave alone are seen set and clear. D only where the reference covers it.
uint8_t extra_flags(unsigned i, bool binary_only) {
  static const uint8_t kAll[4] = {0x00, kV | kI, kN | kZ | kD, kD | kV};
  static const uint8_t kBinary[3] = {0x00, kV | kI, kN | kZ};
  return binary_only ? kBinary[i % 3] : kAll[i % 4];
}

// Every A x every M x both carries, in one form.
void sweep_a_m_c(const OpSpec& s, Form f, Checker& chk, uint8_t x = 0x5A) {
  Machine mc;
  const Placement pl = place(mc.ram, f.mode, 0);
  for (unsigned a = 0; a < 256; ++a)
    for (unsigned m = 0; m < 256; ++m)
      for (unsigned c = 0; c < 2; ++c) {
        const uint8_t p = uint8_t(c | extra_flags(a + m, s.binary_only));
        chk(run_one(mc, f.opcode, f.mode, pl, make_regs(uint8_t(a), x, 0x3C, 0xF0, p), uint8_t(m),
                    s.ref));
      }
}

// ===========================================================================
// Undocumented opcodes: every form and addressing variant, random operands.

TEST(M6502Undocumented, EveryFormEveryAddressingVariant) {
  std::mt19937 rng(6502);
  Checker chk;
  for (const OpSpec& s : undocumented()) {
    for (const Form& f : s.forms) {
      for (int v = 0; v < variant_count(f.mode); ++v) {
        Machine mc;
        const Placement pl = place(mc.ram, f.mode, v);
        for (int i = 0; i < 300; ++i) {
          uint8_t p = uint8_t(rng());
          if (s.binary_only) p = uint8_t(p & ~kD);
          const Regs in =
              make_regs(uint8_t(rng()), uint8_t(rng()), uint8_t(rng()), uint8_t(rng()), p);
          chk(run_one(mc, f.opcode, f.mode, pl, in, uint8_t(rng()), s.ref));
        }
      }
    }
  }
  EXPECT_SWEEP_OK(chk);
}

TEST(M6502Undocumented, LaxEveryValueEveryForm) {
  const OpSpec& s = spec("LAX");
  Checker chk;
  for (const Form& f : s.forms)
    for (int v = 0; v < variant_count(f.mode); ++v) {
      Machine mc;
      const Placement pl = place(mc.ram, f.mode, v);
      for (unsigned m = 0; m < 256; ++m)
        for (unsigned e = 0; e < 4; ++e)
          chk(run_one(mc, f.opcode, f.mode, pl,
                      make_regs(uint8_t(~m), uint8_t(m ^ 0x5A), 0x77, 0xF0,
                                uint8_t(extra_flags(e, false) | (e & 1))),
                      uint8_t(m), s.ref));
    }
  EXPECT_SWEEP_OK(chk);
}

TEST(M6502Undocumented, SaxEveryAAndX) {
  const OpSpec& s = spec("SAX");
  Checker chk;
  for (const Form& f : s.forms) {
    Machine mc;
    const Placement pl = place(mc.ram, f.mode, f.mode == Mode::Zp ? 0 : 1);
    // (zp,X) fixes X (it is the index and data both); the other forms sweep X.
    const unsigned x_step = f.mode == Mode::Izx ? 256 : 1;
    for (unsigned a = 0; a < 256; ++a)
      for (unsigned x = 0; x < 256; x += x_step)
        chk(run_one(mc, f.opcode, f.mode, pl,
                    make_regs(uint8_t(a), uint8_t(x), 0x11, 0xF0, extra_flags(a + x, false)),
                    uint8_t(a * 7), s.ref));
  }
  EXPECT_SWEEP_OK(chk);
}

TEST(M6502Undocumented, ReadModifyWriteEveryAMC) {
  Checker chk;
  for (const char* n : {"DCP", "ISB", "SLO", "RLA", "SRE", "RRA"}) {
    const OpSpec& s = spec(n);
    sweep_a_m_c(s, s.forms[0], chk);  // zp form; other forms in EveryForm...
  }
  EXPECT_SWEEP_OK(chk);
}

TEST(M6502Undocumented, ImmediateOpsEveryAMC) {
  Checker chk;
  for (const char* n : {"ANC", "ALR", "ARR", "SBC"}) {
    const OpSpec& s = spec(n);
    for (const Form& f : s.forms) sweep_a_m_c(s, f, chk);
  }
  // SBX: X = (A & X) - imm. A & X swept through A with X = $FF, then other X.
  for (uint8_t x : {0xFF, 0x0F, 0xA5}) sweep_a_m_c(spec("SBX"), spec("SBX").forms[0], chk, x);
  // ANE: A = (A | $EE) & X & imm (ALE's constant).
  for (uint8_t x : {0xFF, 0x00, 0x5A, 0x99}) sweep_a_m_c(spec("ANE"), spec("ANE").forms[0], chk, x);
  // LXA: A = X = (A | $EE) & imm (ALE's constant).
  for (uint8_t x : {0x00, 0x3C}) sweep_a_m_c(spec("LXA"), spec("LXA").forms[0], chk, x);
  EXPECT_SWEEP_OK(chk);
}

TEST(M6502Undocumented, AneLxaUseMagicConstantEE) {
  // ALE: the unstable "magic" value of ANE/LXA is $EE (64doc's choice).
  Machine mc;
  auto run = [&mc](uint8_t op, uint8_t imm, uint8_t a, uint8_t x) {
    mc.ram[kPc] = op;
    mc.ram[kPc + 1] = imm;
    Regs in = make_regs(a, x, 0x00, 0xF0, 0x00);
    in.pc = kPc;
    load(mc.cpu, in);
    mc.step();
  };
  run(0x8B, 0xFF, 0x00, 0xFF);  // ANE: (0 | $EE) & $FF & $FF = $EE
  EXPECT_EQ(mc.cpu.A, 0xEE);
  EXPECT_EQ(cule::cpu_status(mc.cpu), kN | kB | kU);
  run(0x8B, 0x3F, 0x01, 0xF7);  // ANE: ($01 | $EE) & $F7 & $3F = $27
  EXPECT_EQ(mc.cpu.A, 0x27);
  EXPECT_EQ(mc.cpu.X, 0xF7);
  run(0xAB, 0xFF, 0x11, 0x00);  // LXA: A = X = ($11 | $EE) & $FF = $FF
  EXPECT_EQ(mc.cpu.A, 0xFF);
  EXPECT_EQ(mc.cpu.X, 0xFF);
  run(0xAB, 0x11, 0x00, 0x77);  // LXA: ($00 | $EE) & $11 = 0, Z set
  EXPECT_EQ(mc.cpu.A, 0x00);
  EXPECT_EQ(mc.cpu.X, 0x00);
  EXPECT_EQ(cule::cpu_status(mc.cpu), kZ | kB | kU);
}

TEST(M6502Undocumented, ArrDecimalEveryAMC) {
  // Decimal ARR (D = 1) per 64doc; sweep_a_m_c cycles D, so force it here.
  const OpSpec& s = spec("ARR");
  Checker chk;
  Machine mc;
  const Placement none;
  for (unsigned a = 0; a < 256; ++a)
    for (unsigned m = 0; m < 256; ++m)
      for (unsigned c = 0; c < 2; ++c)
        chk(run_one(mc, 0x6B, Mode::Imm, none,
                    make_regs(uint8_t(a), 0x12, 0x34, 0xF0, uint8_t(kD | c | ((a & 1) ? kV : 0))),
                    uint8_t(m), s.ref));
  EXPECT_SWEEP_OK(chk);
}

TEST(M6502Undocumented, ArrTypedExamples) {
  // Binary: $FF & $FF = $FF, ROR with C=1 -> $FF: C = bit 6 = 1, V = b6^b5 = 0, N.
  // A = $C0 & $FF, C=0 -> $60: C = 1, V = 1^1 = 0. A = $80, C=0 -> $40: C=1, V=1.
  struct Ex {
    uint8_t a, imm, p_in, a_out, p_out;
  };
  const Ex ex[] = {
      {0xFF, 0xFF, kC, 0xFF, kN | kC},
      {0xC0, 0xFF, 0x00, 0x60, kC},
      {0x80, 0xFF, 0x00, 0x40, kC | kV},
      {0x01, 0xFF, 0x00, 0x00, kZ},
      {0x01, 0xFF, kC, 0x80, kN},
      // Decimal (64doc): t = $99 & $FF = $99, ROR C=0 -> $4C; N = old C = 0,
      // Z = 0, V = (t ^ $4C) & $40 = 1; low fix: 9 + 1 > 5 -> $42; high fix:
      // $90 + $10 > $50 -> $A2, C = 1.
      {0x99, 0xFF, kD, 0xA2, kD | kV | kC},
      // t = $00, C=1 -> $80: N = 1, Z = 0, V = 0, no fix-ups, C = 0.
      {0x00, 0xFF, kD | kC, 0x80, kD | kN},
  };
  for (const Ex& e : ex) {
    Machine mc;
    mc.ram[kPc] = 0x6B;
    mc.ram[kPc + 1] = e.imm;
    Regs in = make_regs(e.a, 0, 0, 0xF0, e.p_in);
    in.pc = kPc;
    load(mc.cpu, in);
    mc.step();
    EXPECT_EQ(mc.cpu.A, e.a_out) << "A=" << hx(e.a, 2) << " P=" << hx(e.p_in, 2);
    EXPECT_EQ(cule::cpu_status(mc.cpu), e.p_out | kB | kU)
        << "A=" << hx(e.a, 2) << " P=" << hx(e.p_in, 2);
  }
}

TEST(M6502Undocumented, LasEveryMAndSp) {
  const OpSpec& s = spec("LAS");
  Checker chk;
  Machine mc;
  const Placement pl = place(mc.ram, Mode::Aby, 1);
  for (unsigned m = 0; m < 256; ++m)
    for (unsigned sp = 0; sp < 256; ++sp)
      chk(run_one(
          mc, 0xBB, Mode::Aby, pl,
          make_regs(uint8_t(m + 3), uint8_t(sp ^ 0x81), 0, uint8_t(sp), extra_flags(m + sp, false)),
          uint8_t(m), s.ref));
  EXPECT_SWEEP_OK(chk);
}

TEST(M6502Undocumented, ShaShxShyTasEveryHighByte) {
  // ALE: store (value & (H + 1)), H = high byte of the final address; the
  // address itself is not corrupted when the index crosses a page.
  Checker chk;
  Machine mc;
  std::mt19937 rng(2600);
  struct F {
    const char* n;
    Form f;
  };
  const F forms[] = {{"SHA", {0x9F, Mode::Aby}},
                     {"SHA", {0x93, Mode::Izy}},
                     {"SHX", {0x9E, Mode::Aby}},
                     {"SHY", {0x9C, Mode::Abx}},
                     {"TAS", {0x9B, Mode::Aby}}};
  for (const F& fe : forms) {
    const OpSpec& s = spec(fe.n);
    for (unsigned h = 0; h < 256; ++h) {
      for (unsigned cross = 0; cross < 2; ++cross) {
        const uint16_t base = uint16_t(h << 8 | (cross ? 0xF0 : 0x10));
        Placement pl;
        if (fe.f.mode == Mode::Izy) {
          pl.b1 = 0x40;
          mc.ram[0x40] = uint8_t(base);
          mc.ram[0x41] = uint8_t(base >> 8);
        } else {
          pl.b1 = uint8_t(base);
          pl.b2 = uint8_t(base >> 8);
        }
        (fe.f.mode == Mode::Abx ? pl.x : pl.y) = 0x24;
        pl.ea = uint16_t(base + 0x24);
        if (cross) pl.decoys.push_back(uint16_t((base & 0xFF00) | ((base + 0x24) & 0xFF)));
        for (int i = 0; i < 4; ++i) {
          const uint8_t d = i == 0 ? 0xFF : uint8_t(rng());
          chk(run_one(
              mc, fe.f.opcode, fe.f.mode, pl,
              make_regs(i == 0 ? 0xFF : uint8_t(rng()), d, d, uint8_t(rng()), uint8_t(rng())),
              uint8_t(rng()), s.ref));
        }
      }
    }
  }
  EXPECT_SWEEP_OK(chk);
}

TEST(M6502Undocumented, ShaTypedExamples) {
  // SHA abs,Y $9F: A = X = $FF, base $12F0 + Y $24 = $1314: stores $FF & $14.
  Machine mc;
  mc.ram[kPc] = 0x9F;
  mc.ram[kPc + 1] = 0xF0;
  mc.ram[kPc + 2] = 0x12;
  Regs in = make_regs(0xFF, 0xFF, 0x24, 0xF0, 0x00);
  in.pc = kPc;
  load(mc.cpu, in);
  mc.step();
  EXPECT_EQ(mc.ram[0x1314], 0x14);
  EXPECT_EQ(mc.ram[0x1214], 0x00);
  // Same without a cross: $1210 + $24 = $1234, stores $FF & $13.
  mc.ram[kPc + 1] = 0x10;
  load(mc.cpu, in);
  mc.step();
  EXPECT_EQ(mc.ram[0x1234], 0x13);
  // TAS $9B: SP = A & X = $3C, stores $3C & $13 = $10; flags untouched.
  mc.ram[kPc] = 0x9B;
  in = make_regs(0x7C, 0xBD, 0x24, 0x00, kN | kC);
  in.pc = kPc;
  load(mc.cpu, in);
  mc.step();
  EXPECT_EQ(mc.cpu.SP, 0x3C);
  EXPECT_EQ(mc.ram[0x1234], 0x10);
  EXPECT_EQ(cule::cpu_status(mc.cpu), kN | kC | kB | kU);
}

TEST(M6502Undocumented, NopsChangeNothingButPc) {
  using M = Mode;
  const Form nops[] = {
      {0x1A, M::Imp}, {0x3A, M::Imp}, {0x5A, M::Imp}, {0x7A, M::Imp}, {0xDA, M::Imp},
      {0xFA, M::Imp}, {0xEA, M::Imp}, {0x80, M::Imm}, {0x82, M::Imm}, {0x89, M::Imm},
      {0xC2, M::Imm}, {0xE2, M::Imm}, {0x04, M::Zp},  {0x44, M::Zp},  {0x64, M::Zp},
      {0x14, M::Zpx}, {0x34, M::Zpx}, {0x54, M::Zpx}, {0x74, M::Zpx}, {0xD4, M::Zpx},
      {0xF4, M::Zpx}, {0x0C, M::Abs}, {0x1C, M::Abx}, {0x3C, M::Abx}, {0x5C, M::Abx},
      {0x7C, M::Abx}, {0xDC, M::Abx}, {0xFC, M::Abx},
  };
  std::mt19937 rng(1977);
  Checker chk;
  for (const Form& f : nops)
    for (int v = 0; v < variant_count(f.mode); ++v) {
      Machine mc;
      const Placement pl = place(mc.ram, f.mode, v);
      for (int i = 0; i < 64; ++i) {
        // The reference keeps every register and flag and stores nothing; a NOP
        // with a memory operand still reads it (bank-switch hotspots rely on it).
        const Regs in = make_regs(uint8_t(rng()), uint8_t(rng()), uint8_t(rng()), uint8_t(rng()),
                                  uint8_t(rng()));
        chk(run_one(mc, f.opcode, f.mode, pl, in, uint8_t(rng()), o_nop));
      }
    }
  EXPECT_SWEEP_OK(chk);
}

TEST(M6502Undocumented, JamHaltsTheCore) {
  const uint8_t jams[] = {0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2};
  for (uint8_t op : jams) {
    SCOPED_TRACE("opcode " + hx(op, 2));
    Machine mc;
    mc.ram[kPc] = op;
    mc.ram[kPc + 1] = 0xE8;  // INX, should the core run on
    mc.ram[kPc + 2] = 0xE8;
    mc.ram[0xFFFC] = 0x00;
    mc.ram[0xFFFD] = 0x30;
    mc.ram[0x3000] = 0xEA;  // NOP at the reset vector
    Regs in = make_regs(0x12, 0x34, 0x56, 0xF0, kN | kV | kC);
    in.pc = kPc;
    load(mc.cpu, in);
    mc.cpu.cycles = 1000;
    mc.step();
    EXPECT_EQ(mc.cpu.jammed, 1);
    EXPECT_EQ(mc.cpu.cycles, 1002u);  // ALE: a JAM counts 2 cycles
    const Regs halted = regs_of(mc.cpu);
    EXPECT_EQ(halted.a, in.a);
    EXPECT_EQ(halted.x, in.x);
    EXPECT_EQ(halted.y, in.y);
    EXPECT_EQ(halted.sp, in.sp);
    EXPECT_EQ(halted.p, in.p | kB | kU);
    for (const Access& acc : mc.log) EXPECT_FALSE(acc.write);
    for (int k = 0; k < 3; ++k) {
      mc.step();
      EXPECT_TRUE(same(regs_of(mc.cpu), halted)) << describe(regs_of(mc.cpu));
      EXPECT_EQ(mc.cpu.cycles, 1002u);
      EXPECT_EQ(mc.cpu.jammed, 1);
      EXPECT_TRUE(mc.log.empty()) << "a halted core touched the bus";
    }
    RecordingBus bus{&mc};
    cule::cpu_reset(mc.cpu, bus);
    EXPECT_EQ(mc.cpu.jammed, 0);
    EXPECT_EQ(mc.cpu.PC, 0x3000);
    mc.step();
    EXPECT_EQ(mc.cpu.PC, 0x3001);
  }
}

// ===========================================================================
// ADC / SBC.

TEST(M6502Arithmetic, BinaryAdcSbcEveryAMC) {
  Checker chk;
  Machine mc;
  const Placement none;
  for (unsigned a = 0; a < 256; ++a)
    for (unsigned m = 0; m < 256; ++m)
      for (unsigned c = 0; c < 2; ++c) {
        const uint8_t p = uint8_t(c | ((a ^ m) & 1 ? kI : 0));
        const Regs in = make_regs(uint8_t(a), 0x11, 0x22, 0xF0, p);
        chk(run_one(mc, 0x69, Mode::Imm, none, in, uint8_t(m), [](Regs r, uint8_t v, uint16_t) {
          adc(r, v);
          return Outcome{r};
        }));
        chk(run_one(mc, 0xE9, Mode::Imm, none, in, uint8_t(m), o_sbc));
      }
  EXPECT_SWEEP_OK(chk);
}

TEST(M6502Arithmetic, DecimalAdcSbcEveryBcdPair) {
  // Correct BCD result and carry; ALE: N, Z, V from the decimal result.
  Checker chk;
  Machine mc;
  const Placement none;
  for (unsigned a = 0; a < 256; ++a) {
    if (!is_bcd(uint8_t(a))) continue;
    for (unsigned m = 0; m < 256; ++m) {
      if (!is_bcd(uint8_t(m))) continue;
      for (unsigned c = 0; c < 2; ++c) {
        const Regs in = make_regs(uint8_t(a), 0x11, 0x22, 0xF0, uint8_t(kD | c));
        chk(run_one(mc, 0x69, Mode::Imm, none, in, uint8_t(m), [](Regs r, uint8_t v, uint16_t) {
          adc(r, v);
          return Outcome{r};
        }));
        chk(run_one(mc, 0xE9, Mode::Imm, none, in, uint8_t(m), o_sbc));
        chk(run_one(mc, 0xEB, Mode::Imm, none, in, uint8_t(m), o_sbc));
      }
    }
  }
  EXPECT_SWEEP_OK(chk);
}

TEST(M6502Arithmetic, DecimalAleFlagExamples) {
  struct Ex {
    uint8_t op, a, m, p_in, a_out, p_out;
  };
  const Ex ex[] = {
      // ALE: $99 + $01 = $00, C = 1, Z set from the decimal result (an NMOS
      // chip leaves Z clear: its binary sum is $9A).
      {0x69, 0x99, 0x01, kD, 0x00, kD | kZ | kC},
      // $79 + $00 + 1 = $80: N from the result; V = ($79^$80)&$80 && ($80^$00)&$80.
      {0x69, 0x79, 0x00, kD | kC, 0x80, kD | kN | kV},
      // $00 - $01 = $99, borrow: C = 0; ALE: N = 1 and V = ($00^$99)&$80 &&
      // ($99^$01)&$80 = 1 (the chip: V = 0 from the binary difference).
      {0xE9, 0x00, 0x01, kD | kC, 0x99, kD | kN | kV},
      // $50 - $50 = $00: Z, C = 1.
      {0xE9, 0x50, 0x50, kD | kC, 0x00, kD | kZ | kC},
      // $58 + $46 + 1 = $105 -> $05, C = 1.
      {0x69, 0x58, 0x46, kD | kC, 0x05, kD | kC},
  };
  for (const Ex& e : ex) {
    Machine mc;
    mc.ram[kPc] = e.op;
    mc.ram[kPc + 1] = e.m;
    Regs in = make_regs(e.a, 0, 0, 0xF0, e.p_in);
    in.pc = kPc;
    load(mc.cpu, in);
    mc.step();
    EXPECT_EQ(mc.cpu.A, e.a_out) << hx(e.op, 2) << " A=" << hx(e.a, 2) << " M=" << hx(e.m, 2);
    EXPECT_EQ(cule::cpu_status(mc.cpu), e.p_out | kB | kU)
        << hx(e.op, 2) << " A=" << hx(e.a, 2) << " M=" << hx(e.m, 2);
  }
}

TEST(M6502Arithmetic, DecimalRraIsb) {
  // RRA = ROR M then decimal ADC; ISB = INC M then decimal SBC. The memory
  // step is binary; swept where the value reaching the adder is valid BCD.
  Checker chk;
  Machine mc;
  const Placement pl = place(mc.ram, Mode::Zp, 0);
  for (unsigned a = 0; a < 256; ++a) {
    if (!is_bcd(uint8_t(a))) continue;
    for (unsigned m = 0; m < 256; ++m)
      for (unsigned c = 0; c < 2; ++c) {
        const Regs in = make_regs(uint8_t(a), 0x11, 0x22, 0xF0, uint8_t(kD | c));
        if (is_bcd(uint8_t((m >> 1) | (c << 7))))
          chk(run_one(mc, 0x67, Mode::Zp, pl, in, uint8_t(m), o_rra));
        if (is_bcd(uint8_t(m + 1))) chk(run_one(mc, 0xE7, Mode::Zp, pl, in, uint8_t(m), o_isb));
      }
  }
  EXPECT_SWEEP_OK(chk);
}

// ===========================================================================
// ALE quirks of indirect addressing and JMP (ind).

TEST(M6502Addressing, IndirectPointerAtFFTakesHighByteFrom0100) {
  // ALE: (zp,X) and (zp),Y read the pointer's high byte from pointer + 1
  // without page-zero wrap, so a pointer at $FF takes it from $0100 (a real
  // 6502 reads $00).
  Machine mc;
  mc.ram[0xFF] = 0x34;
  mc.ram[0x100] = 0x12;  // ALE's high byte
  mc.ram[0x00] = 0x56;   // the chip's high byte
  mc.ram[0x1234] = 0xA1;
  mc.ram[0x5634] = 0xB2;
  mc.ram[0x1244] = 0xC3;
  mc.ram[0x5644] = 0xD4;
  auto run = [&mc](uint8_t op, uint8_t zp, uint8_t a, uint8_t x, uint8_t y) {
    mc.ram[kPc] = op;
    mc.ram[kPc + 1] = zp;
    Regs in = make_regs(a, x, y, 0xF0, 0);
    in.pc = kPc;
    load(mc.cpu, in);
    mc.step();
  };
  run(0xA1, 0xFF, 0, 0x00, 0);  // LDA ($FF,X), X = 0
  EXPECT_EQ(mc.cpu.A, 0xA1);
  run(0xA1, 0xF0, 0, 0x0F, 0);  // LDA ($F0,X), X = $0F: pointer $FF
  EXPECT_EQ(mc.cpu.A, 0xA1);
  run(0xA3, 0xF0, 0, 0x0F, 0);  // LAX ($F0,X)
  EXPECT_EQ(mc.cpu.A, 0xA1);
  EXPECT_EQ(mc.cpu.X, 0xA1);
  run(0xB1, 0xFF, 0, 0, 0x10);  // LDA ($FF),Y, Y = $10
  EXPECT_EQ(mc.cpu.A, 0xC3);
  run(0xB3, 0xFF, 0, 0, 0x10);  // LAX ($FF),Y
  EXPECT_EQ(mc.cpu.A, 0xC3);
  EXPECT_EQ(mc.cpu.X, 0xC3);
  run(0x81, 0xF0, 0x77, 0x0F, 0);  // STA ($F0,X)
  EXPECT_EQ(mc.ram[0x1234], 0x77);
  EXPECT_EQ(mc.ram[0x5634], 0xB2);
  run(0x91, 0xFF, 0x66, 0, 0x10);  // STA ($FF),Y
  EXPECT_EQ(mc.ram[0x1244], 0x66);
  EXPECT_EQ(mc.ram[0x5644], 0xD4);
}

TEST(M6502Addressing, IndexedZeroPageWrapsForDocumentedOps) {
  Machine mc;
  mc.ram[0x0014] = 0x5E;
  mc.ram[0x0114] = 0xE5;
  mc.ram[kPc] = 0xB5;  // LDA $F0,X with X = $24 -> $14
  mc.ram[kPc + 1] = 0xF0;
  Regs in = make_regs(0, 0x24, 0, 0xF0, 0);
  in.pc = kPc;
  load(mc.cpu, in);
  mc.step();
  EXPECT_EQ(mc.cpu.A, 0x5E);
  // (zp,X): $F0 + $24 = $14, pointer at $14/$15.
  mc.ram[0x14] = 0x00;
  mc.ram[0x15] = 0x40;
  mc.ram[0x4000] = 0x99;
  mc.ram[kPc] = 0xA1;
  load(mc.cpu, in);
  mc.step();
  EXPECT_EQ(mc.cpu.A, 0x99);
}

TEST(M6502Jump, IndirectJumpPageBug) {
  Machine mc;
  // JMP ($10FF): low byte from $10FF, high byte from $1000 (not $1100).
  mc.ram[kPc] = 0x6C;
  mc.ram[kPc + 1] = 0xFF;
  mc.ram[kPc + 2] = 0x10;
  mc.ram[0x10FF] = 0x34;
  mc.ram[0x1000] = 0x12;
  mc.ram[0x1100] = 0x56;
  mc.cpu.PC = kPc;
  mc.step();
  EXPECT_EQ(mc.cpu.PC, 0x1234);
  // JMP ($1080): plain case.
  mc.ram[kPc + 1] = 0x80;
  mc.ram[0x1080] = 0xCD;
  mc.ram[0x1081] = 0xAB;
  mc.cpu.PC = kPc;
  mc.step();
  EXPECT_EQ(mc.cpu.PC, 0xABCD);
  // JMP abs.
  mc.ram[kPc] = 0x4C;
  mc.cpu.PC = kPc;
  mc.step();
  EXPECT_EQ(mc.cpu.PC, 0x1080);
}

// ===========================================================================
// Stack instructions.

TEST(M6502Stack, BrkPushesPcPlusTwoAndStatusWithB) {
  for (uint8_t p : {uint8_t(0x00), uint8_t(kN | kD | kC), uint8_t(0xFF)}) {
    SCOPED_TRACE("P=" + hx(p, 2));
    Machine mc;
    mc.ram[0x1234] = 0x00;  // BRK
    mc.ram[0x1235] = 0xEA;  // padding byte
    mc.ram[0xFFFE] = 0x78;
    mc.ram[0xFFFF] = 0x56;
    Regs in = make_regs(0x11, 0x22, 0x33, 0xFD, p);
    in.pc = 0x1234;
    load(mc.cpu, in);
    mc.step();
    EXPECT_EQ(mc.cpu.PC, 0x5678);
    EXPECT_EQ(mc.cpu.SP, 0xFA);
    EXPECT_EQ(mc.ram[0x01FD], 0x12);                        // PCH of $1236
    EXPECT_EQ(mc.ram[0x01FC], 0x36);                        // PCL of $1236
    EXPECT_EQ(mc.ram[0x01FB], p | kB | kU);                 // P with B and bit 5
    EXPECT_EQ(cule::cpu_status(mc.cpu), p | kI | kB | kU);  // I set, D kept (NMOS)
    EXPECT_EQ(mc.cpu.A, 0x11);
    EXPECT_EQ(mc.cpu.X, 0x22);
    EXPECT_EQ(mc.cpu.Y, 0x33);
    // RTI returns to the byte after the padding, restoring P.
    mc.ram[0x5678] = 0x40;
    mc.ram[0x01FB] = uint8_t(p ^ 0xC3);
    mc.step();
    EXPECT_EQ(mc.cpu.PC, 0x1236);
    EXPECT_EQ(mc.cpu.SP, 0xFD);
    EXPECT_EQ(cule::cpu_status(mc.cpu), (p ^ 0xC3) | kB | kU);
  }
}

TEST(M6502Stack, JsrPushesLastByteRtsAddsOne) {
  Machine mc;
  mc.ram[0x1234] = 0x20;  // JSR $5678
  mc.ram[0x1235] = 0x78;
  mc.ram[0x1236] = 0x56;
  mc.ram[0x5678] = 0x60;  // RTS
  Regs in = make_regs(0x01, 0x02, 0x03, 0xFD, kC | kV);
  in.pc = 0x1234;
  load(mc.cpu, in);
  mc.step();
  EXPECT_EQ(mc.cpu.PC, 0x5678);
  EXPECT_EQ(mc.cpu.SP, 0xFB);
  EXPECT_EQ(mc.ram[0x01FD], 0x12);
  EXPECT_EQ(mc.ram[0x01FC], 0x36);  // address of JSR's last byte
  EXPECT_EQ(cule::cpu_status(mc.cpu), kC | kV | kB | kU);
  mc.step();
  EXPECT_EQ(mc.cpu.PC, 0x1237);
  EXPECT_EQ(mc.cpu.SP, 0xFD);
  EXPECT_EQ(cule::cpu_status(mc.cpu), kC | kV | kB | kU);
}

TEST(M6502Stack, StackPointerWrapsInPageOne) {
  Machine mc;
  // JSR with SP = $00: PCH to $0100, PCL to $01FF, SP = $FE.
  mc.ram[0x1234] = 0x20;
  mc.ram[0x1235] = 0x00;
  mc.ram[0x1236] = 0x40;
  mc.ram[0x4000] = 0x60;  // RTS pulls from $01FF then $0100
  Regs in = make_regs(0, 0, 0, 0x00, 0);
  in.pc = 0x1234;
  load(mc.cpu, in);
  mc.step();
  EXPECT_EQ(mc.cpu.SP, 0xFE);
  EXPECT_EQ(mc.ram[0x0100], 0x12);
  EXPECT_EQ(mc.ram[0x01FF], 0x36);
  mc.step();
  EXPECT_EQ(mc.cpu.PC, 0x1237);
  EXPECT_EQ(mc.cpu.SP, 0x00);
  // PHA with SP = $00 writes $0100 and leaves SP = $FF; PLA reads it back.
  mc.ram[kPc] = 0x48;
  in = make_regs(0xA5, 0, 0, 0x00, 0);
  in.pc = kPc;
  load(mc.cpu, in);
  mc.step();
  EXPECT_EQ(mc.ram[0x0100], 0xA5);
  EXPECT_EQ(mc.cpu.SP, 0xFF);
  mc.ram[kPc] = 0x68;
  mc.cpu.A = 0;
  mc.cpu.PC = kPc;
  mc.step();
  EXPECT_EQ(mc.cpu.A, 0xA5);
  EXPECT_EQ(mc.cpu.SP, 0x00);
}

TEST(M6502Stack, PhpPlpPhaPlaEveryValue) {
  Checker chk;
  for (unsigned v = 0; v < 256; ++v) {
    Machine mc;
    // PHP pushes P with B and bit 5 set.
    mc.ram[kPc] = 0x08;
    Regs in = make_regs(0x5A, 0, 0, 0xF0, uint8_t(v));
    in.pc = kPc;
    load(mc.cpu, in);
    mc.step();
    std::string err;
    if (mc.ram[0x01F0] != uint8_t(v | kB | kU) || mc.cpu.SP != 0xEF ||
        cule::cpu_status(mc.cpu) != uint8_t(v | kB | kU))
      err += "PHP P=" + hx(v, 2) + " pushed " + hx(mc.ram[0x01F0], 2) + "\n";
    chk(err);
    err.clear();
    // PLP loads every bit but B and bit 5 (which always read 1).
    mc.ram[kPc] = 0x28;
    mc.ram[0x01F0] = uint8_t(v);
    in = make_regs(0x5A, 0x66, 0x77, 0xEF, uint8_t(~v));
    in.pc = kPc;
    load(mc.cpu, in);
    mc.step();
    if (cule::cpu_status(mc.cpu) != uint8_t(v | kB | kU) || mc.cpu.SP != 0xF0 || mc.cpu.A != 0x5A ||
        mc.cpu.PC != kPc + 1)
      err += "PLP " + hx(v, 2) + " -> P=" + hx(cule::cpu_status(mc.cpu), 2) + "\n";
    chk(err);
    err.clear();
    // PHA / PLA; PLA sets N and Z.
    mc.ram[kPc] = 0x48;
    in = make_regs(uint8_t(v), 0, 0, 0xF0, kV);
    in.pc = kPc;
    load(mc.cpu, in);
    mc.step();
    if (mc.ram[0x01F0] != v || mc.cpu.SP != 0xEF ||
        cule::cpu_status(mc.cpu) != uint8_t(kV | kB | kU))
      err += "PHA " + hx(v, 2) + "\n";
    mc.ram[kPc] = 0x68;
    mc.cpu.A = uint8_t(~v);
    mc.cpu.PC = kPc;
    mc.step();
    if (mc.cpu.A != v || mc.cpu.SP != 0xF0 ||
        cule::cpu_status(mc.cpu) != uint8_t(nz(kV, uint8_t(v)) | kB | kU))
      err += "PLA " + hx(v, 2) + " -> A=" + hx(mc.cpu.A, 2) +
             " P=" + hx(cule::cpu_status(mc.cpu), 2) + "\n";
    chk(err);
  }
  EXPECT_SWEEP_OK(chk);
}

TEST(M6502Stack, TxsKeepsFlagsTsxSetsThem) {
  Machine mc;
  mc.ram[kPc] = 0x9A;  // TXS
  Regs in = make_regs(0, 0x80, 0, 0xF0, kZ);
  in.pc = kPc;
  load(mc.cpu, in);
  mc.step();
  EXPECT_EQ(mc.cpu.SP, 0x80);
  EXPECT_EQ(cule::cpu_status(mc.cpu), kZ | kB | kU);
  mc.ram[kPc] = 0xBA;  // TSX
  mc.cpu.PC = kPc;
  mc.cpu.X = 0;
  mc.step();
  EXPECT_EQ(mc.cpu.X, 0x80);
  EXPECT_EQ(cule::cpu_status(mc.cpu), kN | kB | kU);
}

// ===========================================================================
// Status register and reset.

TEST(M6502Status, SetAndReadBackEveryValue) {
  for (unsigned v = 0; v < 256; ++v) {
    cule::Cpu cpu{};
    cule::cpu_set_status(cpu, uint8_t(v));
    EXPECT_EQ(cule::cpu_status(cpu), uint8_t(v | kB | kU)) << hx(v, 2);
    EXPECT_EQ(cpu.C, (v & kC) ? 1 : 0);
    EXPECT_EQ(cpu.V, (v & kV) ? 1 : 0);
    EXPECT_EQ(cpu.D, (v & kD) ? 1 : 0);
    EXPECT_EQ(cpu.I, (v & kI) ? 1 : 0);
    EXPECT_EQ((cpu.n_result & 0x80) != 0, (v & kN) != 0);
    EXPECT_EQ(cpu.z_result == 0, (v & kZ) != 0);
  }
}

TEST(M6502Reset, RegistersAndVector) {
  std::vector<uint8_t> ram(0x10000, 0);
  ram[0xFFFC] = 0x00;
  ram[0xFFFD] = 0xF0;
  cule::FlatMemory bus{ram.data()};
  cule::Cpu cpu{};
  cpu.PC = 0x1234;
  cpu.A = 0x11;
  cpu.X = 0x22;
  cpu.Y = 0x33;
  cpu.SP = 0x44;
  cule::cpu_set_status(cpu, 0xFF);
  cpu.jammed = 1;
  cpu.cycles = 12345;
  cule::cpu_reset(cpu, bus);
  EXPECT_EQ(cpu.PC, 0xF000);
  EXPECT_EQ(cpu.A, 0);
  EXPECT_EQ(cpu.X, 0);
  EXPECT_EQ(cpu.Y, 0);
  EXPECT_EQ(cpu.SP, 0xFF);
  // ALE's reset clears every flag, I included (a real 6502 sets I).
  EXPECT_EQ(cpu.C, 0);
  EXPECT_EQ(cpu.V, 0);
  EXPECT_EQ(cpu.D, 0);
  EXPECT_EQ(cpu.I, 0);
  EXPECT_EQ(cpu.n_result & 0x80, 0);
  EXPECT_NE(cpu.z_result, 0);
  EXPECT_EQ(cule::cpu_status(cpu), kB | kU);
  EXPECT_EQ(cpu.jammed, 0);
  EXPECT_EQ(cpu.cycles, 12345u);
  // A first instruction runs from the vector.
  ram[0xF000] = 0xA9;  // LDA #$80
  ram[0xF001] = 0x80;
  cule::cpu_step(cpu, bus);
  EXPECT_EQ(cpu.A, 0x80);
  EXPECT_EQ(cpu.PC, 0xF002);
}

}  // namespace
