// Cartridge bank switching as ALE emulates it (its Stella 2.x Cart*.cxx): the
// schemes of the ale-py games (2K, 4K, F8, F8SC, F6, F6SC, E0, FE, DPC) plus
// F8 swapped, F4, F4SC, 3F, E7, FASC and UA.
//
// Usage:
//   cule::CartridgeState cart{};
//   cule::cartridge_power_on(cart, mapper, rom_size, ram_fill, cpu.cycles);  // once
//   cule::cartridge_reset(cart, mapper, ram_fill, cpu.cycles);  // each later ALE system reset
//   // bus read, address = the CPU's 16-bit address:
//   if (address & 0x1000) return cule::cartridge_read(cart, mapper, rom, address, cpu.cycles);
//   uint8_t value;
//   if (cule::cartridge_snoops(mapper) &&
//       cule::cartridge_snoop_read(cart, mapper, rom, address, value)) return value;
//   ... TIA / RIOT / RAM ...
//   // bus write:
//   if (address & 0x1000) {
//     if (cule::cartridge_write(cart, mapper, address, value)) tia_write(address, value);
//   } else {
//     if (cule::cartridge_snoops(mapper)) {
//       cule::cartridge_snoop_write(cart, mapper, address, value);
//     }
//     ... TIA / RIOT / RAM, as usual ...
//   }
//
// The ROM image is not part of the state: it is shared by every console and
// read-only. Every function gets it as `rom`, the image as ALE loads it.
//
// Addresses. ALE's System maps 64-byte pages of the 13-bit bus; a cartridge
// owns $1000-$1FFF and hears an access only where it installed a handler, so
// the functions here reproduce ALE's page table, not the hardware:
// - cartridge_read/cartridge_write take the CPU's full 16-bit address with A12
//   set. FE needs A13 of it (ALE's FE picks the bank from A13: $Dxxx runs the
//   second 4 KiB, $Fxxx the first; it watches no stack accesses at all).
// - Outside $1000-$1FFF only two schemes listen (cartridge_snoops):
//   3F  owns the page $0000-$003F (13-bit): a write there selects the 2 KiB
//       bank (value modulo the bank count) and still goes to the TIA; a READ
//       there returns the ROM byte at that offset of the current bank instead
//       of the TIA register (ALE installs its page over the TIA's).
//       Every write to $1000-$1FFF is also passed to the TIA (3F's poke), and
//       a write to $1000-$103F selects a bank as well.
//   UA  watches $0220 and $0240 exactly (13-bit), reads and writes: bank 0 /
//       bank 1; the access itself still goes to the TIA.
// - Hotspots inside cartridge space switch on reads and writes alike, except
//   F4SC, which ALE switches on reads only (its poke compares the unmasked
//   address against $0FF4-$0FFB, which never matches).
//
// Cartridge RAM has separate ports. Writing its read port does nothing;
// reading its write port returns the ROM byte behind it (F8SC/F6SC/F4SC/FASC:
// current bank at that offset; E7: the last 2 KiB slice at that offset), since
// ALE hands those reads to the cartridge's ROM peek. ALE never corrupts RAM on
// such reads (later Stella versions do).
//
// DPC (Pitfall II): the random number generator is clocked by every access
// ALE routes to the DPC: reads of $1000-$107F and $1FC0-$1FFF and every write
// to $1000-$1FFF, but not reads of $1080-$1FBF (ALE maps those pages straight
// to ROM). The music counters advance by 15750 Hz oscillator clocks derived
// from the CPU cycle count, in double precision exactly as ALE computes it;
// pass the same counter (cpu.cycles) to every call, and call
// cartridge_rebase_cycles when that counter is rebased. ALE's CPU reset reads
// $FFFC/$FFFD through the cartridge (two RNG clocks on DPC): cpu_reset must
// reach cartridge_read the same way.
//
// ALE's Cartridge::reset refills cartridge RAM from the system RNG (mt19937)
// on every System::reset (construction and each env reset), but keeps the DPC
// registers. Draw order per System::reset: the RIOT's timer takes one draw,
// then the cartridge takes one draw per RAM byte, RAM[0] first, keeping the
// low 8 bits of each 32-bit output. The host supplies those bytes as
// `ram_fill` (mapper_ram_bytes(mapper) of them; null when that is 0).
#pragma once

#include <cstdint>

#include "kernels/hd.hpp"

namespace cule {

//! A byte of the ROM image. On the device it is read through the read-only
//! (non-coherent) cache: every console of a batch reads the same image.
CULE_HD CULE_FORCE_INLINE uint8_t rom_byte(const uint8_t* rom, uint32_t index) {
#if defined(__CUDA_ARCH__)
  return __ldg(rom + index);
#else
  return rom[index];
#endif
}

//! Bank-switching schemes; the names are ALE's cartridge type strings.
enum class Mapper : uint8_t {
  k2K,
  k4K,
  kF8,
  kF8Swapped,  // F8 that powers on in bank 0 (two md5s ALE forces)
  kF8SC,
  kF6,
  kF6SC,
  kF4,
  kF4SC,
  kE0,
  kFE,
  kDPC,
  k3F,
  kE7,
  kFASC,  // CBS RAM Plus ("FA")
  kUA,
};

//! RAM of a CartridgeState: enough for every scheme but E7 (SC 128, FASC 256).
constexpr uint16_t kCartridgeRamBytes = 256;
//! RAM of an E7 cartridge (1 KiB slice + four 256-byte banks).
constexpr uint16_t kE7RamBytes = 2048;

//! The DPC chip of Pitfall II: eight data fetchers, three of them with music
//! mode, and the random number generator.
struct DpcRegisters {
  uint8_t tops[8];
  uint8_t bottoms[8];
  uint8_t flags[8];          // 0x00 or 0xff
  uint16_t counters[8];      // 11 bits
  uint8_t music_mode[3];     // fetchers 5-7; 0 or 1
  uint8_t random;            // 8-bit shift register
  int32_t last_cycles;       // CPU cycle count at the last music update
  double fractional_clocks;  // oscillator clocks not yet applied, in [0, 1)
};

//! Mapper state of one console. Trivially copyable; kRamBytes sizes the
//! cartridge RAM. E7's 2 KiB does not fit the few-hundred-byte console budget,
//! so the common CartridgeState stops at 256 bytes and E7 ROMs need a
//! CartridgeStateE7 (cartridge_state_fits tells which).
template <uint16_t kRamBytes>
struct BasicCartridgeState {
  uint32_t rom_size;  // 3F: the bank count and the fixed last slice come from it
  uint8_t bank;       // 4 KiB bank (F*, FASC, UA, DPC); 2 KiB bank (3F, E7 segment 0; 7 = RAM)
  uint8_t slice[3];   // E0: 1 KiB slice in segments 0-2 (segment 3 is always slice 7)
  uint8_t ram_bank;   // E7: 256-byte RAM bank at $1800-$19FF
  DpcRegisters dpc;
  uint8_t ram[kRamBytes];
};

using CartridgeState = BasicCartridgeState<kCartridgeRamBytes>;
using CartridgeStateE7 = BasicCartridgeState<kE7RamBytes>;

//! Bytes of cartridge RAM the scheme has (and ALE draws from its RNG at reset).
CULE_HD constexpr uint16_t mapper_ram_bytes(Mapper mapper) {
  switch (mapper) {
    case Mapper::kF8SC:
    case Mapper::kF6SC:
    case Mapper::kF4SC: return 128;
    case Mapper::kFASC: return 256;
    case Mapper::kE7: return kE7RamBytes;
    default: return 0;
  }
}

//! Whether a BasicCartridgeState<kRamBytes> can hold the scheme's RAM. On a
//! state too small, E7 reads 0 from RAM and drops RAM writes.
template <uint16_t kRamBytes>
CULE_HD constexpr bool cartridge_state_fits(Mapper mapper) {
  return mapper_ram_bytes(mapper) <= kRamBytes;
}

//! Whether the scheme listens to accesses outside $1000-$1FFF (3F and UA);
//! only then need the console call cartridge_snoop_read/cartridge_snoop_write.
CULE_HD constexpr bool cartridge_snoops(Mapper mapper) {
  return mapper == Mapper::k3F || mapper == Mapper::kUA;
}

namespace detail {

// The RNG's input bit is the XNOR of bits 7, 5, 4 and 3.
CULE_HD CULE_FORCE_INLINE void dpc_clock_random(DpcRegisters& dpc) {
  const uint32_t r = dpc.random;
  const uint32_t parity = (r >> 3) ^ (r >> 4) ^ (r >> 5) ^ (r >> 7);
  dpc.random = static_cast<uint8_t>((r << 1) | (~parity & 1));
}

// Music fetchers count down once per oscillator clock (15750 Hz against the
// 1193191.67 Hz CPU), wrapping from 0 to their top; only the low byte counts.
CULE_HD inline void dpc_update_music(DpcRegisters& dpc, uint32_t cycles) {
  const int32_t elapsed = static_cast<int32_t>(cycles - static_cast<uint32_t>(dpc.last_cycles));
  dpc.last_cycles = static_cast<int32_t>(cycles);
  // No multiply-add to contract: the sum follows a division, as in ALE.
  const double clocks = (15750.0 * elapsed) / 1193191.66666667 + dpc.fractional_clocks;
  const int32_t whole = static_cast<int32_t>(clocks);
  dpc.fractional_clocks = clocks - static_cast<double>(whole);
  if (whole <= 0) return;
  for (int x = 5; x <= 7; ++x) {
    if (!dpc.music_mode[x - 5]) continue;
    const int32_t top = int32_t(dpc.tops[x]) + 1;
    int32_t low = dpc.counters[x] & 0xff;
    if (dpc.tops[x] != 0) {
      low -= whole % top;
      if (low < 0) low += top;
    } else {
      low = 0;
    }
    if (low <= dpc.bottoms[x]) {
      dpc.flags[x] = 0x00;
    } else if (low <= dpc.tops[x]) {
      dpc.flags[x] = 0xff;
    }
    dpc.counters[x] = static_cast<uint16_t>((dpc.counters[x] & 0x0700) | low);
  }
}

// A read of $1000-$103F: function (A5-A3) of data fetcher (A2-A0).
CULE_HD inline uint8_t dpc_read_register(DpcRegisters& dpc, const uint8_t* rom, uint16_t offset,
                                         uint32_t cycles) {
  const uint32_t index = offset & 0x07;
  const uint32_t function = (offset >> 3) & 0x07;
  const uint32_t low = dpc.counters[index] & 0xff;
  if (low == dpc.tops[index]) {
    dpc.flags[index] = 0xff;
  } else if (low == dpc.bottoms[index]) {
    dpc.flags[index] = 0x00;
  }
  const uint8_t* display = rom + 8192;  // 2 KiB, read from its end downwards
  uint8_t result = 0;
  switch (function) {
    case 0:
      if (index < 4) {
        result = dpc.random;
      } else {
        dpc_update_music(dpc, cycles);
        // Amplitude table {0,4,5,9,6,10,11,15}: fetchers 5, 6, 7 weigh 4, 5, 6.
        result = static_cast<uint8_t>((dpc.music_mode[0] && dpc.flags[5] ? 4 : 0) +
                                      (dpc.music_mode[1] && dpc.flags[6] ? 5 : 0) +
                                      (dpc.music_mode[2] && dpc.flags[7] ? 6 : 0));
      }
      break;
    case 1: result = display[2047 - dpc.counters[index]]; break;
    case 2: result = display[2047 - dpc.counters[index]] & dpc.flags[index]; break;
    case 7: result = dpc.flags[index]; break;
    default: break;  // 3-6 read 0
  }
  // Every fetcher read counts down, except a music fetcher in music mode.
  if (index < 5 || !dpc.music_mode[index - 5]) {
    dpc.counters[index] = static_cast<uint16_t>((dpc.counters[index] - 1) & 0x07ff);
  }
  return result;
}

// A write to $1040-$107F.
CULE_HD inline void dpc_write_register(DpcRegisters& dpc, uint16_t offset, uint8_t value) {
  const uint32_t index = offset & 0x07;
  switch ((offset >> 3) & 0x07) {
    case 0:
      dpc.tops[index] = value;
      dpc.flags[index] = 0x00;
      break;
    case 1: dpc.bottoms[index] = value; break;
    case 2: {
      // A music fetcher in music mode loads its top, not the value written.
      const bool music = index >= 5 && dpc.music_mode[index - 5];
      const uint8_t low = music ? dpc.tops[index] : value;
      dpc.counters[index] = static_cast<uint16_t>((dpc.counters[index] & 0x0700) | low);
      break;
    }
    case 3:
      dpc.counters[index] =
          static_cast<uint16_t>(((value & 0x07) << 8) | (dpc.counters[index] & 0x00ff));
      if (index >= 5) dpc.music_mode[index - 5] = (value & 0x10) ? 1 : 0;
      break;
    case 6: dpc.random = 1; break;
    default: break;  // 4, 5, 7: nothing in ALE
  }
}

// 3F: a bank number past the end wraps modulo the bank count.
template <uint16_t kRamBytes>
CULE_HD CULE_FORCE_INLINE void select_3f_bank(BasicCartridgeState<kRamBytes>& cart, uint8_t value) {
  const uint32_t banks = cart.rom_size / 2048;
  cart.bank = static_cast<uint8_t>(uint32_t(value) * 2048 < cart.rom_size ? value : value % banks);
}

// Hotspot accesses of the schemes that switch on reads and writes alike.
template <uint16_t kRamBytes>
CULE_HD CULE_FORCE_INLINE void touch_hotspots(BasicCartridgeState<kRamBytes>& cart, Mapper mapper,
                                              uint16_t offset) {
  switch (mapper) {
    case Mapper::kF8:
    case Mapper::kF8Swapped:
    case Mapper::kF8SC:
    case Mapper::kDPC:
      if (offset == 0x0ff8 || offset == 0x0ff9) cart.bank = static_cast<uint8_t>(offset - 0x0ff8);
      break;
    case Mapper::kF6:
    case Mapper::kF6SC:
      if (offset >= 0x0ff6 && offset <= 0x0ff9) cart.bank = static_cast<uint8_t>(offset - 0x0ff6);
      break;
    case Mapper::kF4:
    case Mapper::kF4SC:  // F4SC: reads only (see cartridge_write)
      if (offset >= 0x0ff4 && offset <= 0x0ffb) cart.bank = static_cast<uint8_t>(offset - 0x0ff4);
      break;
    case Mapper::kFASC:
      if (offset >= 0x0ff8 && offset <= 0x0ffa) cart.bank = static_cast<uint8_t>(offset - 0x0ff8);
      break;
    case Mapper::kE0:
      if (offset >= 0x0fe0 && offset <= 0x0ff7) cart.slice[(offset - 0x0fe0) >> 3] = offset & 0x07;
      break;
    case Mapper::kE7:
      if (offset >= 0x0fe0 && offset <= 0x0fe7) {
        cart.bank = offset & 0x07;
      } else if (offset >= 0x0fe8 && offset <= 0x0feb) {
        cart.ram_bank = offset & 0x03;
      }
      break;
    default: break;
  }
}

}  // namespace detail

//! ALE's Cartridge::reset: the power-on bank of the scheme, cartridge RAM
//! refilled from `ram_fill` (mapper_ram_bytes(mapper) bytes), the DPC's music
//! clock resynchronised to `cycles`. DPC registers and everything else stay.
template <uint16_t kRamBytes>
CULE_HD inline void cartridge_reset(BasicCartridgeState<kRamBytes>& cart, Mapper mapper,
                                    const uint8_t* ram_fill, uint32_t cycles) {
  const uint16_t ram_bytes = mapper_ram_bytes(mapper);
  if (ram_fill != nullptr && ram_bytes <= kRamBytes) {
    for (uint16_t i = 0; i < ram_bytes; ++i) cart.ram[i] = ram_fill[i];
  }
  switch (mapper) {
    case Mapper::kF8:
    case Mapper::kF8SC:
    case Mapper::kDPC: cart.bank = 1; break;
    case Mapper::kFASC: cart.bank = 2; break;
    case Mapper::kE0:
      cart.slice[0] = 4;
      cart.slice[1] = 5;
      cart.slice[2] = 6;
      break;
    case Mapper::kE7:
      cart.bank = 0;
      cart.ram_bank = 0;
      break;
    default: cart.bank = 0; break;  // F8 swapped, F6, F6SC, F4, F4SC, 3F, UA
  }
  if (mapper == Mapper::kDPC) {
    cart.dpc.last_cycles = static_cast<int32_t>(cycles);
    cart.dpc.fractional_clocks = 0.0;
  }
}

//! The state of a freshly created ALE cartridge after its first reset: all
//! registers cleared, the DPC's random number 1, then cartridge_reset.
template <uint16_t kRamBytes>
CULE_HD inline void cartridge_power_on(BasicCartridgeState<kRamBytes>& cart, Mapper mapper,
                                       uint32_t rom_size, const uint8_t* ram_fill,
                                       uint32_t cycles) {
  cart = BasicCartridgeState<kRamBytes>{};
  cart.rom_size = rom_size;
  cart.dpc.random = 1;
  cartridge_reset(cart, mapper, ram_fill, cycles);
}

//! The CPU's read of `address` (16-bit, A12 set). `cycles` is the CPU cycle
//! count at the access (DPC music only).
template <uint16_t kRamBytes>
CULE_HD inline uint8_t cartridge_read(BasicCartridgeState<kRamBytes>& cart, Mapper mapper,
                                      const uint8_t* rom, uint16_t address, uint32_t cycles) {
  const uint16_t offset = address & 0x0fff;
  switch (mapper) {
    case Mapper::k2K: return rom_byte(rom, offset & 0x07ff);
    case Mapper::k4K: return rom_byte(rom, offset);
    case Mapper::kFE: return rom_byte(rom, offset + ((address & 0x2000) ? 0 : 0x1000));
    case Mapper::kF8SC:
    case Mapper::kF6SC:
    case Mapper::kF4SC:
      if (offset >= 0x0080 && offset < 0x0100) return cart.ram[offset & 0x7f];
      break;
    case Mapper::kFASC:
      if (offset >= 0x0100 && offset < 0x0200) return cart.ram[offset & 0xff];
      break;
    case Mapper::kDPC:
      if (offset >= 0x0080 && offset < 0x0fc0) break;  // ALE's direct pages: no RNG clock
      detail::dpc_clock_random(cart.dpc);
      if (offset < 0x0040) return detail::dpc_read_register(cart.dpc, rom, offset, cycles);
      break;
    case Mapper::k3F:
      return offset < 0x0800 ? rom_byte(rom, uint32_t(cart.bank) * 2048 + offset)
                             : rom_byte(rom, cart.rom_size - 2048 + (offset & 0x07ff));
    case Mapper::kE7:
      if (offset < 0x0800) {
        if (cart.bank != 7) return rom_byte(rom, uint32_t(cart.bank) * 2048 + offset);
        if (offset >= 0x0400) {
          if constexpr (kRamBytes >= kE7RamBytes) return cart.ram[offset & 0x03ff];
          return 0;
        }
      } else if (offset >= 0x0900 && offset < 0x0a00) {
        if constexpr (kRamBytes >= kE7RamBytes) {
          return cart.ram[1024 + cart.ram_bank * 256 + (offset & 0xff)];
        }
        return 0;
      }
      detail::touch_hotspots(cart, mapper, offset);
      // Everything else, RAM write ports included, reads the last slice.
      return rom_byte(rom, 7 * 2048 + (offset & 0x07ff));
    case Mapper::kE0: {
      detail::touch_hotspots(cart, mapper, offset);
      const uint32_t segment = offset >> 10;
      const uint32_t slice = segment == 3 ? 7 : cart.slice[segment];
      return rom_byte(rom, (slice << 10) + (offset & 0x03ff));
    }
    default: break;  // F8, F8 swapped, F6, F4, UA
  }
  detail::touch_hotspots(cart, mapper, offset);
  return rom_byte(rom, (uint32_t(cart.bank) << 12) + offset);
}

//! The commonest reads of `address` (16-bit, A12 set), those that are plain
//! ROM bytes: all of 2K and 4K cartridges, and for the 4 KiB bank-switched
//! schemes the window between their RAM ports, if any (a write port, then a
//! read port, each the RAM's size, from $1000), and their hotspots (from
//! $1FF4). Returns false, reading nothing, for every other read, which
//! cartridge_read makes. Small enough to inline into the CPU's fetches.
template <uint16_t kRamBytes>
CULE_HD CULE_FORCE_INLINE bool cartridge_read_plain(const BasicCartridgeState<kRamBytes>& cart,
                                                    Mapper mapper, const uint8_t* rom,
                                                    uint16_t address, uint8_t& value) {
  const uint16_t offset = address & 0x0fff;
  switch (mapper) {
    case Mapper::k2K: value = rom_byte(rom, offset & 0x07ff); return true;
    case Mapper::k4K: value = rom_byte(rom, offset); return true;
    case Mapper::kF8:
    case Mapper::kF8Swapped:
    case Mapper::kF8SC:
    case Mapper::kF6:
    case Mapper::kF6SC:
    case Mapper::kF4:
    case Mapper::kF4SC:
    case Mapper::kFASC:
      if (offset < 2 * mapper_ram_bytes(mapper) || offset >= 0x0ff4) return false;
      value = rom_byte(rom, (uint32_t(cart.bank) << 12) + offset);
      return true;
    default: return false;
  }
}

//! The bytes at `address` (16-bit, A12 set) and the two after it, when
//! cartridge_read_plain reads all three from the same 4 KiB window (the
//! CPU's code ahead, see CodeAhead). Returns false when any of them is not
//! a plain ROM byte or the window ends before them.
template <uint16_t kRamBytes>
CULE_HD CULE_FORCE_INLINE bool cartridge_read_code(const BasicCartridgeState<kRamBytes>& cart,
                                                   Mapper mapper, const uint8_t* rom,
                                                   uint16_t address, uint8_t (&code)[3]) {
  return (address & 0x0fff) <= 0x0ffd &&
         cartridge_read_plain(cart, mapper, rom, address, code[0]) &&
         cartridge_read_plain(cart, mapper, rom, uint16_t(address + 1), code[1]) &&
         cartridge_read_plain(cart, mapper, rom, uint16_t(address + 2), code[2]);
}

//! The entries of a table of the cartridge's code by bank and window
//! offset (the console's predecoded code, see cartridge_code_index): 4096
//! for each 4 KiB bank that cartridge_read_plain reads code from (one for
//! 2K, mirrored in the window); 0 for schemes it never reads code from.
CULE_HD constexpr uint32_t cartridge_code_entries(Mapper mapper) {
  switch (mapper) {
    case Mapper::k2K:
    case Mapper::k4K: return 4096;
    case Mapper::kF8:
    case Mapper::kF8Swapped:
    case Mapper::kF8SC: return 2 * 4096;
    case Mapper::kF6:
    case Mapper::kF6SC: return 4 * 4096;
    case Mapper::kF4:
    case Mapper::kF4SC: return 8 * 4096;
    case Mapper::kFASC: return 3 * 4096;
    default: return 0;
  }
}

//! Where the code at `address` (16-bit, A12 set) is in that table: the
//! current bank's window (the only window of 2K and 4K, whose table has
//! one). -1 for schemes whose table is empty.
template <uint16_t kRamBytes>
CULE_HD CULE_FORCE_INLINE int32_t cartridge_code_index(const BasicCartridgeState<kRamBytes>& cart,
                                                       Mapper mapper, uint16_t address) {
  const uint32_t entries = cartridge_code_entries(mapper);
  const int32_t offset = address & 0x0fff;
  return entries == 0 ? -1 : entries == 4096 ? offset : int32_t(cart.bank) << 12 | offset;
}

//! The CPU's write of `value` to `address` (16-bit, A12 set). Returns true
//! when ALE also hands the write to the TIA (3F, every such write): the
//! console must then write `value` to the TIA at `address`.
template <uint16_t kRamBytes>
CULE_HD inline bool cartridge_write(BasicCartridgeState<kRamBytes>& cart, Mapper mapper,
                                    uint16_t address, uint8_t value) {
  const uint16_t offset = address & 0x0fff;
  switch (mapper) {
    case Mapper::k2K:
    case Mapper::k4K:
    case Mapper::kFE:
    case Mapper::kUA: return false;
    case Mapper::kF4SC:
      // ALE's F4SC never switches on a write.
      if (offset < 0x0080) cart.ram[offset] = value;
      return false;
    case Mapper::kF8SC:
    case Mapper::kF6SC:
      if (offset < 0x0080) {
        cart.ram[offset] = value;
        return false;
      }
      break;
    case Mapper::kFASC:
      if (offset < 0x0100) {
        cart.ram[offset] = value;
        return false;
      }
      break;
    case Mapper::kDPC:
      detail::dpc_clock_random(cart.dpc);
      if (offset >= 0x0040 && offset < 0x0080) {
        detail::dpc_write_register(cart.dpc, offset, value);
        return false;
      }
      break;
    case Mapper::k3F:
      if (offset < 0x0040) detail::select_3f_bank(cart, value);
      return true;
    case Mapper::kE7:
      if (cart.bank == 7 && offset < 0x0400) {
        if constexpr (kRamBytes >= kE7RamBytes) cart.ram[offset] = value;
        return false;
      }
      if (offset >= 0x0800 && offset < 0x0900) {
        if constexpr (kRamBytes >= kE7RamBytes) {
          cart.ram[1024 + cart.ram_bank * 256 + (offset & 0xff)] = value;
        }
        return false;
      }
      break;
    default: break;  // F8, F8 swapped, F6, F4, E0
  }
  detail::touch_hotspots(cart, mapper, offset);
  return false;
}

//! A read outside $1000-$1FFF, for schemes where cartridge_snoops is true.
//! Returns true when the cartridge answers it (3F, $0000-$003F): `value` then
//! replaces what the TIA would have returned.
template <uint16_t kRamBytes>
CULE_HD inline bool cartridge_snoop_read(BasicCartridgeState<kRamBytes>& cart, Mapper mapper,
                                         const uint8_t* rom, uint16_t address, uint8_t& value) {
  const uint16_t bus = address & 0x1fff;
  if (mapper == Mapper::k3F) {
    if (bus >= 0x0040) return false;
    value = rom_byte(rom, uint32_t(cart.bank) * 2048 + bus);
    return true;
  }
  if (mapper == Mapper::kUA) {
    if (bus == 0x0220) cart.bank = 0;
    if (bus == 0x0240) cart.bank = 1;
  }
  return false;
}

//! A write outside $1000-$1FFF, for schemes where cartridge_snoops is true.
//! The console performs the write itself as well (TIA, RIOT or RAM).
template <uint16_t kRamBytes>
CULE_HD inline void cartridge_snoop_write(BasicCartridgeState<kRamBytes>& cart, Mapper mapper,
                                          uint16_t address, uint8_t value) {
  const uint16_t bus = address & 0x1fff;
  if (mapper == Mapper::k3F) {
    if (bus < 0x0040) detail::select_3f_bank(cart, value);
  } else if (mapper == Mapper::kUA) {
    if (bus == 0x0220) cart.bank = 0;
    if (bus == 0x0240) cart.bank = 1;
  }
}

//! The CPU cycle counter is about to go back to zero from `cycles`.
template <uint16_t kRamBytes>
CULE_HD inline void cartridge_rebase_cycles(BasicCartridgeState<kRamBytes>& cart, Mapper mapper,
                                            uint32_t cycles) {
  if (mapper == Mapper::kDPC) {
    cart.dpc.last_cycles = static_cast<int32_t>(uint32_t(cart.dpc.last_cycles) - cycles);
  }
}

//! What an ALE cloneState/restoreState round trip does to the state: ale-py
//! 0.12.1 keeps the DPC's fractional clocks as a truncated multiple of 1e-8
//! (ALE after 0.12.1 rounds: pass round_to_nearest). All else survives.
template <uint16_t kRamBytes>
CULE_HD inline void cartridge_ale_state_roundtrip(BasicCartridgeState<kRamBytes>& cart,
                                                  Mapper mapper, bool round_to_nearest = false) {
  if (mapper != Mapper::kDPC) return;
  const double scaled = cart.dpc.fractional_clocks * 100000000.0 + (round_to_nearest ? 0.5 : 0.0);
  const int32_t stored = static_cast<int32_t>(static_cast<uint32_t>(scaled));
  cart.dpc.fractional_clocks = static_cast<double>(stored) / 100000000.0;
}

}  // namespace cule
