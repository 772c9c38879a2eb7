// Cartridge bank switching and detection. Each scheme runs on a synthetic ROM
// whose bytes encode (bank, offset); the expectations are the published
// bank-switching maps (Kevin Horton's "bankswitching" notes, Stella's docs)
// with ALE's particulars where it differs: power-on banks, F4SC switching on
// reads only, FE decoding A13, 3F answering reads of $00-$3F, and the DPC.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "cule/cartridge_detect.hpp"
#include "cule/console.hpp"
#include "cule/error.hpp"
#include "kernels/cartridge.hpp"
#include "testdata.hpp"

namespace cule {
namespace {

static_assert(std::is_trivially_copyable_v<CartridgeState>);
static_assert(std::is_trivially_copyable_v<CartridgeStateE7>);
static_assert(sizeof(CartridgeState) <= 352, "the common state stays a few hundred bytes");

// A byte that identifies its bank for any fixed offset (0x35 is odd, so the
// bank is recoverable modulo 256; 29 is its inverse).
uint8_t tag(uint32_t bank, uint32_t offset) {
  return static_cast<uint8_t>(bank * 0x35 + offset * 7 + (offset >> 8) * 13);
}

int bank_of(uint8_t value, uint32_t offset) {
  return static_cast<uint8_t>((value - offset * 7 - (offset >> 8) * 13) * 29);
}

std::vector<uint8_t> tagged_rom(size_t size, uint32_t bank_bytes) {
  std::vector<uint8_t> rom(size);
  for (size_t i = 0; i < size; ++i)
    rom[i] = tag(uint32_t(i / bank_bytes), uint32_t(i % bank_bytes));
  return rom;
}

std::vector<uint8_t> fill_pattern(size_t size) {
  std::vector<uint8_t> fill(size);
  for (size_t i = 0; i < size; ++i) fill[i] = static_cast<uint8_t>(i * 37 + 11);
  return fill;
}

// One console's cartridge over a tagged ROM of `bank_bytes` banks.
template <class State = CartridgeState>
struct Cart {
  Mapper mapper;
  uint32_t bank_bytes;
  std::vector<uint8_t> rom;
  std::vector<uint8_t> fill;
  State state{};
  uint32_t cycles = 0;

  Cart(Mapper m, size_t size, uint32_t bytes)
      : mapper(m),
        bank_bytes(bytes),
        rom(tagged_rom(size, bytes)),
        fill(fill_pattern(mapper_ram_bytes(m))) {
    cartridge_power_on(state, mapper, uint32_t(rom.size()), fill.empty() ? nullptr : fill.data(),
                       cycles);
  }
  uint8_t read(uint16_t address) {
    return cartridge_read(state, mapper, rom.data(), address, cycles);
  }
  bool write(uint16_t address, uint8_t value) {
    return cartridge_write(state, mapper, address, value);
  }
  // The bank a read of `address` came from (for schemes with banks of bank_bytes).
  int bank(uint16_t address) { return bank_of(read(address), address & (bank_bytes - 1)); }
};

// ---------------------------------------------------------------------------
// Plain and F-series schemes

TEST(Cartridge, TwoKMirrorsAcrossTheFourKWindow) {
  Cart<> cart(Mapper::k2K, 2048, 2048);
  for (uint16_t offset : {0x000, 0x123, 0x7ff}) {
    EXPECT_EQ(cart.read(0x1000 + offset), cart.rom[offset]);
    EXPECT_EQ(cart.read(0x1800 + offset), cart.rom[offset]);
    EXPECT_EQ(cart.read(0xF800 + offset), cart.rom[offset]);
  }
  EXPECT_FALSE(cart.write(0x1000, 0x55));
  EXPECT_EQ(cart.read(0x1000), cart.rom[0]);
}

TEST(Cartridge, FourKReadsTheWholeWindow) {
  Cart<> cart(Mapper::k4K, 4096, 4096);
  EXPECT_EQ(cart.read(0x1abc), cart.rom[0xabc]);
  EXPECT_EQ(cart.read(0xfffc), cart.rom[0xffc]);
}

TEST(Cartridge, F8PowersOnInBankOneAndSwitchesOnReadsAndWrites) {
  Cart<> cart(Mapper::kF8, 8192, 4096);
  EXPECT_EQ(cart.bank(0x1000), 1);
  EXPECT_EQ(cart.bank(0x1ff8), 0);  // the hotspot read returns the new bank's byte
  EXPECT_EQ(cart.bank(0x1000), 0);
  cart.write(0x1ff9, 0);
  EXPECT_EQ(cart.bank(0x1234), 1);
  cart.read(0xfff8);  // any mirror of the hotspot
  EXPECT_EQ(cart.bank(0x1234), 0);
  cart.read(0x1ff7);
  cart.read(0x1ffa);
  cart.write(0x1ff7, 0);
  EXPECT_EQ(cart.bank(0x1234), 0);
}

TEST(Cartridge, F8SwappedPowersOnInBankZero) {
  Cart<> cart(Mapper::kF8Swapped, 8192, 4096);
  EXPECT_EQ(cart.bank(0x1000), 0);
  cart.read(0x1ff9);
  EXPECT_EQ(cart.bank(0x1000), 1);
}

TEST(Cartridge, F6SelectsFourBanks) {
  Cart<> cart(Mapper::kF6, 16384, 4096);
  EXPECT_EQ(cart.bank(0x1000), 0);
  for (int bank = 0; bank < 4; ++bank) {
    cart.read(uint16_t(0x1ff6 + bank));
    EXPECT_EQ(cart.bank(0x1800), bank);
  }
  for (int bank = 3; bank >= 0; --bank) {
    cart.write(uint16_t(0x1ff6 + bank), 0);
    EXPECT_EQ(cart.bank(0x1800), bank);
  }
  cart.read(0x1ff5);
  cart.read(0x1ffa);
  EXPECT_EQ(cart.bank(0x1800), 0);
}

TEST(Cartridge, F4SelectsEightBanks) {
  Cart<> cart(Mapper::kF4, 32768, 4096);
  EXPECT_EQ(cart.bank(0x1000), 0);
  for (int bank = 0; bank < 8; ++bank) {
    cart.write(uint16_t(0x1ff4 + bank), 0);
    EXPECT_EQ(cart.bank(0x1100), bank);
    cart.read(uint16_t(0x1ff4 + (7 - bank)));
    EXPECT_EQ(cart.bank(0x1100), 7 - bank);
  }
}

// SuperChip: write port $1000-$107F, read port $1080-$10FF.
void expect_superchip_ram(Cart<>& cart) {
  for (uint16_t i = 0; i < 128; ++i) EXPECT_EQ(cart.read(0x1080 + i), cart.fill[i]) << i;
  for (uint16_t i = 0; i < 128; ++i) EXPECT_FALSE(cart.write(0x1000 + i, uint8_t(0xA0 ^ i)));
  for (uint16_t i = 0; i < 128; ++i) EXPECT_EQ(cart.read(0x1080 + i), uint8_t(0xA0 ^ i));
  cart.write(0xF005, 0x42);  // through a 16-bit mirror
  EXPECT_EQ(cart.read(0xF085), 0x42);
  // A write to the read port is lost; a read of the write port gives the ROM.
  cart.write(0x1090, 0x77);
  EXPECT_EQ(cart.read(0x1090), uint8_t(0xA0 ^ 0x10));
  const int bank = cart.bank(0x1800);
  EXPECT_EQ(cart.read(0x1010), tag(uint32_t(bank), 0x010));
  EXPECT_EQ(cart.read(0x1090), uint8_t(0xA0 ^ 0x10));  // and leaves the RAM alone
}

TEST(Cartridge, F8SCRamPortsAndBanks) {
  Cart<> cart(Mapper::kF8SC, 8192, 4096);
  EXPECT_EQ(cart.bank(0x1800), 1);
  expect_superchip_ram(cart);
  cart.write(0x1ff8, 0);
  EXPECT_EQ(cart.bank(0x1800), 0);
  EXPECT_EQ(cart.read(0x1010), tag(0, 0x010));
  cart.read(0x1ff9);
  EXPECT_EQ(cart.bank(0x1800), 1);
}

TEST(Cartridge, F6SCRamPortsAndBanks) {
  Cart<> cart(Mapper::kF6SC, 16384, 4096);
  EXPECT_EQ(cart.bank(0x1800), 0);
  expect_superchip_ram(cart);
  cart.read(0x1ff8);
  EXPECT_EQ(cart.bank(0x1800), 2);
  cart.write(0x1ff7, 0);
  EXPECT_EQ(cart.bank(0x1800), 1);
}

TEST(Cartridge, F4SCSwitchesOnReadsOnly) {
  Cart<> cart(Mapper::kF4SC, 32768, 4096);
  EXPECT_EQ(cart.bank(0x1800), 0);
  expect_superchip_ram(cart);
  cart.read(0x1ffb);
  EXPECT_EQ(cart.bank(0x1800), 7);
  // ALE's F4SC poke compares the unmasked address with $0FF4-$0FFB.
  cart.write(0x1ff5, 0);
  cart.write(0xfff6, 0);
  EXPECT_EQ(cart.bank(0x1800), 7);
  cart.read(0xfff5);
  EXPECT_EQ(cart.bank(0x1800), 1);
}

TEST(Cartridge, FASCHas256BytesOfRamAndStartsInBankTwo) {
  Cart<> cart(Mapper::kFASC, 12288, 4096);
  EXPECT_EQ(cart.bank(0x1800), 2);
  for (uint16_t i = 0; i < 256; ++i) EXPECT_EQ(cart.read(0x1100 + i), cart.fill[i]);
  for (uint16_t i = 0; i < 256; ++i) cart.write(0x1000 + i, uint8_t(255 - i));
  for (uint16_t i = 0; i < 256; ++i) EXPECT_EQ(cart.read(0x1100 + i), uint8_t(255 - i));
  EXPECT_EQ(cart.read(0x10ff), tag(2, 0x0ff));  // write port reads the ROM
  cart.write(0x11ff, 0x77);                     // read port ignores writes
  EXPECT_EQ(cart.read(0x11ff), 0);
  cart.read(0x1ff8);
  EXPECT_EQ(cart.bank(0x1800), 0);
  cart.write(0x1ff9, 0);
  EXPECT_EQ(cart.bank(0x1800), 1);
  cart.read(0x1ffa);
  EXPECT_EQ(cart.bank(0x1800), 2);
  cart.read(0x1ffb);
  EXPECT_EQ(cart.bank(0x1800), 2);
}

TEST(Cartridge, ResetRefillsRamAndReturnsToThePowerOnBank) {
  Cart<> cart(Mapper::kF8SC, 8192, 4096);
  cart.write(0x1000, 0x99);
  cart.read(0x1ff8);
  const std::vector<uint8_t> fill(128, 0x5A);
  cartridge_reset(cart.state, cart.mapper, fill.data(), 0);
  EXPECT_EQ(cart.read(0x1080), 0x5A);
  EXPECT_EQ(cart.bank(0x1800), 1);
}

// ---------------------------------------------------------------------------
// E0, FE, 3F, E7, UA

TEST(Cartridge, E0SlicesStartAtFourFiveSixSeven) {
  Cart<> cart(Mapper::kE0, 8192, 1024);
  EXPECT_EQ(cart.bank(0x1000), 4);
  EXPECT_EQ(cart.bank(0x1400), 5);
  EXPECT_EQ(cart.bank(0x1800), 6);
  EXPECT_EQ(cart.bank(0x1c00), 7);
}

TEST(Cartridge, E0HotspotsSelectEachSegment) {
  Cart<> cart(Mapper::kE0, 8192, 1024);
  for (int slice = 0; slice < 8; ++slice) {
    cart.read(uint16_t(0x1fe0 + slice));
    cart.write(uint16_t(0x1fe8 + (7 - slice)), 0);
    cart.read(uint16_t(0x1ff0 + (slice ^ 3)));
    EXPECT_EQ(cart.bank(0x1000), slice);
    EXPECT_EQ(cart.bank(0x1400), 7 - slice);
    EXPECT_EQ(cart.bank(0x1800), slice ^ 3);
    EXPECT_EQ(cart.bank(0x1fdf), 7);  // the last segment is fixed
    EXPECT_EQ(cart.bank(0x1ffc), 7);
  }
  cart.read(0x1ff8);  // past the hotspots
  EXPECT_EQ(cart.bank(0x1800), 7 ^ 3);
}

TEST(Cartridge, FEPicksTheBankFromA13) {
  Cart<> cart(Mapper::kFE, 8192, 4096);
  EXPECT_EQ(cart.bank(0xF000), 0);
  EXPECT_EQ(cart.bank(0xFFFC), 0);
  EXPECT_EQ(cart.bank(0xD000), 1);
  EXPECT_EQ(cart.bank(0xDFFF), 1);
  EXPECT_EQ(cart.bank(0x1000), 1);  // A13 clear
  EXPECT_EQ(cart.bank(0x3000), 0);  // A13 set
  EXPECT_FALSE(cart.write(0x11FE, 0));
  EXPECT_FALSE(cartridge_snoops(Mapper::kFE));  // no stack watching in ALE
}

TEST(Cartridge, ThreeFSwitchesOnWritesToTiaSpace) {
  Cart<> cart(Mapper::k3F, 8 * 2048, 2048);
  EXPECT_TRUE(cartridge_snoops(Mapper::k3F));
  EXPECT_EQ(cart.bank(0x1000), 0);
  EXPECT_EQ(cart.bank(0x1800), 7);
  cartridge_snoop_write(cart.state, cart.mapper, 0x003F, 3);
  EXPECT_EQ(cart.bank(0x17ff), 3);
  EXPECT_EQ(cart.bank(0x1800), 7);
  cartridge_snoop_write(cart.state, cart.mapper, 0x0000, 5);
  EXPECT_EQ(cart.bank(0x1000), 5);
  cartridge_snoop_write(cart.state, cart.mapper, 0x4020, 6);  // a mirror of $0020
  EXPECT_EQ(cart.bank(0x1000), 6);
  cartridge_snoop_write(cart.state, cart.mapper, 0x0040, 1);  // next page: TIA only
  cartridge_snoop_write(cart.state, cart.mapper, 0x0280, 1);
  EXPECT_EQ(cart.bank(0x1000), 6);
  cartridge_snoop_write(cart.state, cart.mapper, 0x003F, 11);  // past the end: modulo 8
  EXPECT_EQ(cart.bank(0x1000), 3);
}

TEST(Cartridge, ThreeFAnswersReadsOfItsTiaPage) {
  Cart<> cart(Mapper::k3F, 4 * 2048, 2048);
  cartridge_snoop_write(cart.state, cart.mapper, 0x003F, 2);
  uint8_t value = 0;
  EXPECT_TRUE(cartridge_snoop_read(cart.state, cart.mapper, cart.rom.data(), 0x0007, value));
  EXPECT_EQ(value, tag(2, 0x007));
  EXPECT_TRUE(cartridge_snoop_read(cart.state, cart.mapper, cart.rom.data(), 0x203D, value));
  EXPECT_EQ(value, tag(2, 0x03D));
  EXPECT_FALSE(cartridge_snoop_read(cart.state, cart.mapper, cart.rom.data(), 0x0040, value));
  EXPECT_FALSE(cartridge_snoop_read(cart.state, cart.mapper, cart.rom.data(), 0x0180, value));
}

TEST(Cartridge, ThreeFPassesCartridgeWritesToTheTia) {
  Cart<> cart(Mapper::k3F, 4 * 2048, 2048);
  EXPECT_TRUE(cart.write(0x1010, 1));  // selects bank 1, and reaches the TIA
  EXPECT_EQ(cart.bank(0x1000), 1);
  EXPECT_TRUE(cart.write(0x1040, 2));
  EXPECT_TRUE(cart.write(0x1fff, 2));
  EXPECT_EQ(cart.bank(0x1000), 1);
}

TEST(Cartridge, ThreeFFixedSliceIsTheLastTwoKOfAnyImageSize) {
  Cart<> cart(Mapper::k3F, 3 * 2048 + 100, 2048);
  EXPECT_EQ(cart.read(0x1800), cart.rom[cart.rom.size() - 2048]);
  EXPECT_EQ(cart.read(0x1fff), cart.rom.back());
  cartridge_snoop_write(cart.state, cart.mapper, 0x003F, 3);  // 3 * 2048 < size: taken as is
  EXPECT_EQ(cart.bank(0x1000), 3);
  cartridge_snoop_write(cart.state, cart.mapper, 0x003F, 4);  // 4 % 3
  EXPECT_EQ(cart.bank(0x1000), 1);
}

TEST(Cartridge, E7NeedsTheLargeState) {
  EXPECT_FALSE(cartridge_state_fits<kCartridgeRamBytes>(Mapper::kE7));
  EXPECT_TRUE(cartridge_state_fits<kE7RamBytes>(Mapper::kE7));
  for (Mapper m : {Mapper::kF8SC, Mapper::kF6SC, Mapper::kF4SC, Mapper::kFASC, Mapper::kDPC}) {
    EXPECT_TRUE(cartridge_state_fits<kCartridgeRamBytes>(m));
  }
  // On the small state E7 still banks its ROM, and its RAM reads 0.
  Cart<> cart(Mapper::kE7, 16384, 2048);
  EXPECT_EQ(cart.bank(0x1000), 0);
  cart.read(0x1fe7);
  cart.write(0x1000, 0x12);
  EXPECT_EQ(cart.read(0x1400), 0);
}

TEST(Cartridge, E7SlicesAndFixedSegment) {
  Cart<CartridgeStateE7> cart(Mapper::kE7, 16384, 2048);
  EXPECT_EQ(cart.bank(0x1000), 0);
  EXPECT_EQ(cart.bank(0x1a00), 7);
  EXPECT_EQ(cart.bank(0x1fdf), 7);
  for (int slice = 0; slice < 7; ++slice) {
    if (slice & 1) {
      cart.write(uint16_t(0x1fe0 + slice), 0);
    } else {
      cart.read(uint16_t(0x1fe0 + slice));
    }
    EXPECT_EQ(cart.bank(0x1000), slice);
    EXPECT_EQ(cart.bank(0x17ff), slice);
    EXPECT_EQ(cart.bank(0x1ffc), 7);
  }
}

TEST(Cartridge, E7OneKRam) {
  Cart<CartridgeStateE7> cart(Mapper::kE7, 16384, 2048);
  cart.read(0x1fe7);  // RAM in the first segment
  for (uint16_t i = 0; i < 1024; i += 7) EXPECT_EQ(cart.read(0x1400 + i), cart.fill[i]);
  for (uint16_t i = 0; i < 1024; ++i) cart.write(0x1000 + i, uint8_t(i ^ 0x5A));
  for (uint16_t i = 0; i < 1024; ++i) EXPECT_EQ(cart.read(0x1400 + i), uint8_t(i ^ 0x5A));
  // The write port reads the last slice; the read port ignores writes.
  EXPECT_EQ(cart.read(0x1005), tag(7, 0x005));
  cart.write(0x1405, 0);
  EXPECT_EQ(cart.read(0x1405), uint8_t(5 ^ 0x5A));
  // Back to ROM: the RAM keeps its contents.
  cart.read(0x1fe2);
  EXPECT_EQ(cart.bank(0x1400), 2);
  cart.write(0x1003, 0xEE);  // ROM now: lost
  cart.read(0x1fe7);
  EXPECT_EQ(cart.read(0x1403), uint8_t(3 ^ 0x5A));
}

TEST(Cartridge, E7RamBanks) {
  Cart<CartridgeStateE7> cart(Mapper::kE7, 16384, 2048);
  EXPECT_EQ(cart.read(0x1900), cart.fill[1024]);  // RAM bank 0 at power-on
  for (int bank = 0; bank < 4; ++bank) {
    cart.read(uint16_t(0x1fe8 + bank));
    for (uint16_t i = 0; i < 256; ++i) cart.write(0x1800 + i, uint8_t(bank * 64 + i));
  }
  for (int bank = 3; bank >= 0; --bank) {
    cart.write(uint16_t(0x1fe8 + bank), 0);
    for (uint16_t i = 0; i < 256; i += 5) {
      EXPECT_EQ(cart.read(0x1900 + i), uint8_t(bank * 64 + i));
    }
  }
  EXPECT_EQ(cart.read(0x1810), tag(7, 0x010));  // write port reads the last slice
  EXPECT_EQ(cart.state.ram[1024 + 2 * 256 + 7], uint8_t(2 * 64 + 7));
}

TEST(Cartridge, UAWatchesTwoRiotPageAddresses) {
  Cart<> cart(Mapper::kUA, 8192, 4096);
  EXPECT_TRUE(cartridge_snoops(Mapper::kUA));
  EXPECT_EQ(cart.bank(0x1000), 0);
  uint8_t value = 0;
  EXPECT_FALSE(cartridge_snoop_read(cart.state, cart.mapper, cart.rom.data(), 0x0240, value));
  EXPECT_EQ(cart.bank(0x1000), 1);
  cartridge_snoop_write(cart.state, cart.mapper, 0x0220, 0);
  EXPECT_EQ(cart.bank(0x1000), 0);
  cartridge_snoop_write(cart.state, cart.mapper, 0xE240, 0);  // a mirror: A15-A13 ignored
  EXPECT_EQ(cart.bank(0x1fff), 1);
  cartridge_snoop_read(cart.state, cart.mapper, cart.rom.data(), 0x0221, value);
  cartridge_snoop_write(cart.state, cart.mapper, 0x0241, 0);
  cart.read(0x1220);
  cart.write(0x1220, 0);
  EXPECT_EQ(cart.bank(0x1fff), 1);
}

// ---------------------------------------------------------------------------
// DPC

// ALE's generator: shift left, input bit from a table over bits 7, 5, 4, 3.
uint8_t next_random(uint8_t r) {
  static const uint8_t kInput[16] = {1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1};
  return static_cast<uint8_t>((r << 1) | kInput[((r >> 3) & 0x07) | ((r & 0x80) ? 0x08 : 0)]);
}

std::vector<uint8_t> dpc_rom() {
  std::vector<uint8_t> rom = tagged_rom(10495, 4096);
  for (size_t i = 0; i < 2048; ++i) rom[8192 + i] = static_cast<uint8_t>(i * 5 + (i >> 8));
  return rom;
}

struct Dpc : Cart<> {
  Dpc() : Cart<>(Mapper::kDPC, 10495, 4096) {
    rom = dpc_rom();
    cartridge_power_on(state, mapper, uint32_t(rom.size()), nullptr, 0);
  }
  uint8_t display(uint16_t counter) const { return rom[8192 + 2047 - counter]; }
};

TEST(CartridgeDpc, PowersOnInBankOneAndSwitchesLikeF8) {
  Dpc dpc;
  EXPECT_EQ(dpc.bank(0x1800), 1);
  EXPECT_EQ(dpc.state.dpc.random, 1);
  dpc.read(0x1ff8);
  EXPECT_EQ(dpc.bank(0x1800), 0);
  dpc.write(0x1ff9, 0);
  EXPECT_EQ(dpc.bank(0x1800), 1);
  EXPECT_EQ(dpc.read(0x1050), tag(1, 0x050));  // write registers read as ROM
}

TEST(CartridgeDpc, RandomNumbersStepOnRoutedAccessesOnly) {
  Dpc dpc;
  uint8_t expected = 1;
  for (int i = 0; i < 600; ++i) {
    expected = next_random(expected);
    ASSERT_EQ(dpc.read(uint16_t(0x1000 + (i & 3))), expected) << i;  // DF0-DF3 random
  }
  dpc.read(0x1080);  // ROM pages mapped straight through: no clock
  dpc.read(0x1fbf);
  EXPECT_EQ(dpc.state.dpc.random, expected);
  dpc.read(0x1060);      // register write page: clocks
  dpc.read(0x1fc0);      // hotspot page: clocks
  dpc.write(0x1800, 0);  // every write clocks
  for (int i = 0; i < 3; ++i) expected = next_random(expected);
  EXPECT_EQ(dpc.state.dpc.random, expected);
  dpc.write(0x1070, 0);  // RNG reset (function 6)
  EXPECT_EQ(dpc.state.dpc.random, 1);
  EXPECT_EQ(dpc.read(0x1000), next_random(1));
}

TEST(CartridgeDpc, DataFetcherCountsDownAndRaisesItsFlag) {
  Dpc dpc;
  dpc.write(0x1040, 0x10);  // DF0 top
  dpc.write(0x1048, 0x05);  // DF0 bottom
  dpc.write(0x1050, 0x12);  // DF0 counter low
  dpc.write(0x1058, 0xF9);  // DF0 counter high (3 bits)
  EXPECT_EQ(dpc.state.dpc.counters[0], 0x112);
  EXPECT_EQ(dpc.read(0x1008), dpc.display(0x112));  // display data, then count
  EXPECT_EQ(dpc.read(0x1038), 0x00);                // flag: low 0x11, neither top nor bottom
  EXPECT_EQ(dpc.read(0x1038), 0xFF);                // low 0x10 = top: flag set
  EXPECT_EQ(dpc.read(0x1010), dpc.display(0x10F));  // display AND flag
  for (int i = 0; i < 9; ++i) dpc.read(0x1018);     // function 3 reads 0, still counts
  EXPECT_EQ(dpc.state.dpc.counters[0], 0x105);
  EXPECT_EQ(dpc.read(0x1010), 0x00);  // low 0x05 = bottom: flag clear
  EXPECT_EQ(dpc.state.dpc.counters[0], 0x104);
  dpc.write(0x1040, 0x33);  // a top write clears the flag
  EXPECT_EQ(dpc.state.dpc.flags[0], 0);
  dpc.write(0x1058, 0);
  dpc.write(0x1050, 0);
  dpc.read(0x1008);
  EXPECT_EQ(dpc.state.dpc.counters[0], 0x7FF);  // 11-bit wrap
}

TEST(CartridgeDpc, MusicFetchersFollowTheCpuClock) {
  Dpc dpc;
  dpc.write(0x1045, 3);     // DF5 top
  dpc.write(0x104D, 1);     // DF5 bottom
  dpc.write(0x105D, 0x10);  // DF5 counter high: music mode on
  dpc.write(0x1055, 0x99);  // in music mode the low counter loads the top
  EXPECT_EQ(dpc.state.dpc.counters[5], 3);
  // 1000 cycles = 13.1999 oscillator clocks: 3 - 13 % 4 = 2, above the bottom.
  dpc.cycles = 1000;
  EXPECT_EQ(dpc.read(0x1005), 4);
  EXPECT_EQ(dpc.state.dpc.counters[5], 2);
  EXPECT_NEAR(dpc.state.dpc.fractional_clocks, 0.19989, 1e-4);
  // 76 more cycles = 1.0032 clocks, plus the carried fraction: one clock.
  dpc.cycles = 1076;
  EXPECT_EQ(dpc.read(0x1005), 0);
  EXPECT_EQ(dpc.state.dpc.counters[5], 1);
  EXPECT_EQ(dpc.read(0x1015), 0);  // flag clear; music counters do not count on reads
  EXPECT_EQ(dpc.state.dpc.counters[5], 1);
}

TEST(CartridgeDpc, AmplitudeSumsTheThreeMusicFlags) {
  Dpc dpc;
  for (uint16_t df = 5; df <= 7; ++df) {
    dpc.write(0x1040 + df, 200);   // top
    dpc.write(0x1048 + df, 0);     // bottom
    dpc.write(0x1058 + df, 0x10);  // music mode
    dpc.write(0x1050 + df, 0);     // low = top
  }
  dpc.cycles = 80;  // one clock: 199, between bottom and top
  EXPECT_EQ(dpc.read(0x1004), 15);
  dpc.write(0x105E, 0x00);  // DF6 leaves music mode
  EXPECT_EQ(dpc.read(0x1007), 4 + 6);
  dpc.write(0x105D, 0x00);
  EXPECT_EQ(dpc.read(0x1006), 6);
}

TEST(CartridgeDpc, RebasingTheCycleCounterChangesNothing) {
  Dpc a;
  Dpc b;
  for (Dpc* dpc : {&a, &b}) {
    dpc->write(0x1045, 57);
    dpc->write(0x104D, 20);
    dpc->write(0x105D, 0x10);
    dpc->write(0x1055, 0);
  }
  uint32_t offset = 0;
  for (int i = 0; i < 2000; ++i) {
    a.cycles += 37 + (i % 11);
    b.cycles = a.cycles - offset;
    if (i % 300 == 299) {  // b's frame ends: its counter goes back to zero
      cartridge_rebase_cycles(b.state, b.mapper, b.cycles);
      offset += b.cycles;
      b.cycles = 0;
    }
    ASSERT_EQ(a.read(0x1005), b.read(0x1005)) << i;
    ASSERT_EQ(a.state.dpc.counters[5], b.state.dpc.counters[5]) << i;
    ASSERT_EQ(a.state.dpc.fractional_clocks, b.state.dpc.fractional_clocks) << i;
  }
}

TEST(CartridgeDpc, ResetKeepsTheRegisters) {
  Dpc dpc;
  dpc.write(0x1041, 9);
  dpc.cycles = 500;
  dpc.read(0x1004);
  dpc.read(0x1ff8);
  const uint8_t random = dpc.state.dpc.random;
  cartridge_reset(dpc.state, dpc.mapper, nullptr, 123);
  EXPECT_EQ(dpc.state.dpc.tops[1], 9);
  EXPECT_EQ(dpc.state.dpc.random, random);
  EXPECT_EQ(dpc.state.dpc.last_cycles, 123);
  EXPECT_EQ(dpc.state.dpc.fractional_clocks, 0.0);
  EXPECT_EQ(dpc.bank(0x1800), 1);
}

TEST(CartridgeDpc, AleStateRoundTripQuantisesTheFraction) {
  CartridgeState cart{};
  cart.dpc.fractional_clocks = 0.123456789;
  cartridge_ale_state_roundtrip(cart, Mapper::kDPC);
  EXPECT_EQ(cart.dpc.fractional_clocks, 12345678 / 100000000.0);
  cart.dpc.fractional_clocks = 0.123456789;
  cartridge_ale_state_roundtrip(cart, Mapper::kDPC, true);
  EXPECT_EQ(cart.dpc.fractional_clocks, 12345679 / 100000000.0);
}

// ---------------------------------------------------------------------------
// The CPU's code read ahead

struct CodeScheme {
  Mapper mapper;
  size_t size;
  uint32_t bank_bytes;
  int banks;  // F-series: each bank in turn
};
constexpr CodeScheme kCodeSchemes[] = {
    {Mapper::k2K, 2048, 2048, 1},    {Mapper::k4K, 4096, 4096, 1},
    {Mapper::kF8, 8192, 4096, 2},    {Mapper::kF8Swapped, 8192, 4096, 2},
    {Mapper::kF8SC, 8192, 4096, 2},  {Mapper::kF6, 16384, 4096, 4},
    {Mapper::kF6SC, 16384, 4096, 4}, {Mapper::kF4, 32768, 4096, 8},
    {Mapper::kF4SC, 32768, 4096, 8}, {Mapper::kFASC, 12288, 4096, 3},
    {Mapper::kE0, 8192, 1024, 1},    {Mapper::kFE, 8192, 4096, 1},
    {Mapper::k3F, 8192, 2048, 1},    {Mapper::kUA, 8192, 4096, 1},
    {Mapper::kDPC, 10495, 4096, 1},
};

// Calls visit(address) for each cartridge address (A12 set, as the bus
// hands them) of the window and of a 16-bit mirror of it, with the
// addresses around them, in each bank of the scheme in turn.
template <class Visit>
void for_each_code_address(Cart<>& cart, const CodeScheme& scheme, Visit visit) {
  for (int bank = 0; bank < scheme.banks; ++bank) {
    if (scheme.banks > 1) cart.state.bank = uint8_t(bank);
    for (const uint32_t start : {0x0ff0u, 0xeff0u}) {
      for (uint32_t at = start; at < start + 0x1020; ++at) {
        if (::testing::Test::HasFatalFailure()) return;
        if (at & 0x1000) visit(uint16_t(at));
      }
    }
  }
}

// The plain and F-series schemes read code ahead; the others read no ROM plain.
bool reads_code_ahead(const CodeScheme& scheme) {
  return scheme.banks > 1 || scheme.mapper == Mapper::k2K || scheme.mapper == Mapper::k4K;
}

// cartridge_read_code reads an opcode and the two bytes after it exactly
// where all three are plain ROM reads (cartridge_read_plain, A12 set), and
// gives what cartridge_read gives for each.
TEST(Cartridge, CodeIsReadAheadWhereItsThreeBytesArePlainReads) {
  for (const CodeScheme& scheme : kCodeSchemes) {
    SCOPED_TRACE(mapper_name(scheme.mapper));
    Cart<> cart(scheme.mapper, scheme.size, scheme.bank_bytes);
    int read_ahead = 0;
    for_each_code_address(cart, scheme, [&](uint16_t address) {
      uint8_t code[3] = {};
      const bool ahead =
          cartridge_read_code(cart.state, scheme.mapper, cart.rom.data(), address, code);
      bool plain = true;
      for (int i = 0; i < 3; ++i) {
        const uint16_t byte_address = uint16_t(address + i);
        uint8_t ignored;
        plain =
            plain && (byte_address & 0x1000) &&
            cartridge_read_plain(cart.state, scheme.mapper, cart.rom.data(), byte_address, ignored);
      }
      ASSERT_EQ(ahead, plain) << "at " << std::hex << address;
      if (!ahead) return;
      ++read_ahead;
      for (int i = 0; i < 3; ++i) {
        CartridgeState state = cart.state;
        ASSERT_EQ(code[i], cartridge_read(state, scheme.mapper, cart.rom.data(),
                                          uint16_t(address + i), cart.cycles))
            << "byte " << i << " at " << std::hex << address;
      }
    });
    EXPECT_EQ(read_ahead > 0, reads_code_ahead(scheme));
  }
}

// The predecoded code that the console's bus reads ahead from, before the
// ROM image, holds at cartridge_code_index of every address in every bank
// what cartridge_read_code reads there, valid exactly where it reads, with
// the opcode's table entry; schemes that read no code ahead have none.
TEST(Cartridge, PredecodedCodeIsTheCodeReadAheadAtEveryAddress) {
  for (const CodeScheme& scheme : kCodeSchemes) {
    SCOPED_TRACE(mapper_name(scheme.mapper));
    Cart<> cart(scheme.mapper, scheme.size, scheme.bank_bytes);
    const PredecodedRom rom = predecode_rom(scheme.mapper, cart.rom);
    ASSERT_EQ(rom.image_size, cart.rom.size());
    ASSERT_EQ(std::memcmp(rom.image(), cart.rom.data(), cart.rom.size()), 0);
    ASSERT_EQ(rom.code_entries > 0, reads_code_ahead(scheme));
    if (rom.code_entries == 0) continue;
    // The code the console's bus finds before the image.
    ASSERT_EQ(predecoded_code(rom.image(), scheme.mapper), rom.code());
    int valid = 0;
    for_each_code_address(cart, scheme, [&](uint16_t address) {
      const int32_t index = cartridge_code_index(cart.state, scheme.mapper, address);
      ASSERT_TRUE(index >= 0 && size_t(index) < rom.code_entries) << "at " << std::hex << address;
      const CodeAhead got = code_ahead(rom.code() + index);
      uint8_t code[3] = {};
      const bool ahead =
          cartridge_read_code(cart.state, scheme.mapper, cart.rom.data(), address, code);
      ASSERT_EQ(got.read, ahead) << "at " << std::hex << address;
      if (!ahead) return;
      ++valid;
      ASSERT_TRUE(got.opcode == code[0] && got.first == code[1] && got.second == code[2])
          << "at " << std::hex << address;
      ASSERT_EQ(got.decoded, detail::kPackedDecoded[code[0]]) << "at " << std::hex << address;
    });
    EXPECT_GT(valid, 0);
  }
}

// ---------------------------------------------------------------------------
// Detection and validation

std::vector<uint8_t> image_with(size_t size, std::initializer_list<uint8_t> code, size_t at) {
  std::vector<uint8_t> image = tagged_rom(size, 4096);
  std::copy(code.begin(), code.end(), image.begin() + long(at));
  return image;
}

Mapper detect(const std::vector<uint8_t>& image) {
  return detect_mapper(image.data(), image.size());
}

TEST(CartridgeDetect, BySizeAndSignature) {
  EXPECT_EQ(detect(tagged_rom(2048, 4096)), Mapper::k2K);
  std::vector<uint8_t> mirrored(4096);
  for (size_t i = 0; i < 4096; ++i) mirrored[i] = uint8_t(i * 3);
  EXPECT_EQ(detect(mirrored), Mapper::k2K);  // two identical halves
  EXPECT_EQ(detect(tagged_rom(4096, 4096)), Mapper::k4K);
  EXPECT_EQ(detect(tagged_rom(8192, 4096)), Mapper::kF8);
  std::vector<uint8_t> doubled = tagged_rom(8192, 8192);
  std::copy(doubled.begin(), doubled.begin() + 4096, doubled.begin() + 4096);
  EXPECT_EQ(detect(doubled), Mapper::k4K);
  EXPECT_EQ(detect(image_with(8192, {0xAD, 0xE9, 0xFF}, 100)), Mapper::kE0);
  EXPECT_EQ(detect(image_with(8192, {0x85, 0x3F, 0x00, 0x85, 0x3F}, 100)), Mapper::k3F);
  EXPECT_EQ(detect(image_with(8192, {0x8D, 0x40, 0x02}, 100)), Mapper::kUA);
  EXPECT_EQ(detect(image_with(8192, {0x20, 0x00, 0xD0, 0xC6, 0xC5}, 100)), Mapper::kFE);
  EXPECT_EQ(detect(tagged_rom(10240, 4096)), Mapper::kDPC);
  EXPECT_EQ(detect(tagged_rom(10495, 4096)), Mapper::kDPC);
  EXPECT_EQ(detect(tagged_rom(12288, 4096)), Mapper::kFASC);
  EXPECT_EQ(detect(tagged_rom(16384, 4096)), Mapper::kF6);
  EXPECT_EQ(detect(tagged_rom(32768, 4096)), Mapper::kF4);
  EXPECT_EQ(detect(image_with(32768, {0x85, 0x3F, 0x00, 0x85, 0x3F}, 9000)), Mapper::k3F);
}

TEST(CartridgeDetect, SuperChipNeedsUniformRamPortsInEveryBank) {
  for (size_t size : {8192u, 16384u, 32768u}) {
    std::vector<uint8_t> image = tagged_rom(size, 4096);
    for (size_t bank = 0; bank < size / 4096; ++bank) {
      std::fill_n(image.begin() + long(bank * 4096), 256, uint8_t(bank == 0 ? 0xFF : 0x00));
    }
    const Mapper expected = size == 8192    ? Mapper::kF8SC
                            : size == 16384 ? Mapper::kF6SC
                                            : Mapper::kF4SC;
    EXPECT_EQ(detect(image), expected) << size;
    image[size - 4096 + 255] ^= 1;
    EXPECT_NE(detect(image), expected) << size;
  }
}

TEST(CartridgeDetect, E7NeedsUniformRamPortsWithVariedSurroundings) {
  std::vector<uint8_t> image = tagged_rom(16384, 4096);
  std::fill(image.begin() + 0x3800, image.begin() + 0x3A00, 0x00);
  EXPECT_EQ(detect(image), Mapper::kE7);
  std::fill(image.begin() + 0x3800 - 32, image.begin() + 0x3A00 + 32, 0x00);
  EXPECT_EQ(detect(image), Mapper::kF6);
}

TEST(CartridgeDetect, SignatureAtTheVeryEndIsNotSeen) {
  // ALE's search stops one position short of the end.
  std::vector<uint8_t> image = tagged_rom(8192, 4096);
  image[8189] = 0x8D;
  image[8190] = 0x40;
  image[8191] = 0x02;
  EXPECT_EQ(detect_ale_type(image.data(), image.size()), "F8");
  image[8188] = 0x8D;
  image[8189] = 0x40;
  image[8190] = 0x02;
  EXPECT_EQ(detect_ale_type(image.data(), image.size()), "UA");
}

TEST(CartridgeDetect, AdjacentSignaturesCountOnce) {
  // After a hit ALE's search skips the signature and one byte more.
  std::vector<uint8_t> image = image_with(8192, {0x85, 0x3F, 0x85, 0x3F}, 100);
  EXPECT_EQ(detect_ale_type(image.data(), image.size()), "F8");
  image = image_with(8192, {0x85, 0x3F, 0xEA, 0x85, 0x3F}, 100);
  EXPECT_EQ(detect_ale_type(image.data(), image.size()), "3F");
}

void expect_error_mentions(const std::function<void()>& call, const std::string& text) {
  try {
    call();
    FAIL() << "expected cule::Error mentioning " << text;
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find(text), std::string::npos) << error.what();
  }
}

TEST(CartridgeDetect, UnsupportedImagesThrow) {
  const std::vector<uint8_t> odd = tagged_rom(3000, 4096);
  expect_error_mentions([&] { detect(odd); }, "3000");
  EXPECT_EQ(detect_ale_type(odd.data(), odd.size()), "");
  const std::vector<uint8_t> empty;
  expect_error_mentions([&] { detect(empty); }, "0 bytes");
  const std::vector<uint8_t> ar = tagged_rom(8448, 4096);
  EXPECT_EQ(detect_ale_type(ar.data(), ar.size()), "AR");
  expect_error_mentions([&] { detect(ar); }, "\"AR\"");
  const std::vector<uint8_t> mb = tagged_rom(65536, 4096);
  EXPECT_EQ(detect_ale_type(mb.data(), mb.size()), "MB");
  EXPECT_THROW(detect(mb), Error);
  EXPECT_EQ(detect_ale_type(tagged_rom(131072, 4096).data(), 131072), "MC");
  const std::vector<uint8_t> e3 = image_with(8192, {0x85, 0x3E, 0xA9, 0x00}, 50);
  EXPECT_EQ(detect_ale_type(e3.data(), e3.size()), "3E");
  EXPECT_THROW(detect(e3), Error);
  const std::vector<uint8_t> cv = image_with(4096, {0x9D, 0xFF, 0xF3}, 50);
  EXPECT_EQ(detect_ale_type(cv.data(), cv.size()), "CV");
  EXPECT_THROW(detect(cv), Error);
  const std::vector<uint8_t> tiny_3f = image_with(1000, {0x85, 0x3F, 0xEA, 0x85, 0x3F}, 0);
  EXPECT_EQ(detect_ale_type(tiny_3f.data(), tiny_3f.size()), "3F");
  expect_error_mentions([&] { detect(tiny_3f); }, "at least 2048");
}

TEST(CartridgeDetect, AleTypeStrings) {
  EXPECT_EQ(mapper_from_ale_type("F8"), Mapper::kF8);
  EXPECT_EQ(mapper_from_ale_type("f6sc"), Mapper::kF6SC);
  EXPECT_EQ(mapper_from_ale_type("F8 swapped"), Mapper::kF8Swapped);
  EXPECT_EQ(mapper_from_ale_type("FASC"), Mapper::kFASC);
  for (Mapper m : {Mapper::k2K, Mapper::k4K, Mapper::kF8, Mapper::kF8Swapped, Mapper::kF8SC,
                   Mapper::kF6, Mapper::kF6SC, Mapper::kF4, Mapper::kF4SC, Mapper::kE0, Mapper::kFE,
                   Mapper::kDPC, Mapper::k3F, Mapper::kE7, Mapper::kFASC, Mapper::kUA}) {
    EXPECT_EQ(mapper_from_ale_type(mapper_name(m)), m) << mapper_name(m);
  }
  expect_error_mentions([] { mapper_from_ale_type("AR"); }, "\"AR\"");
  expect_error_mentions([] { mapper_from_ale_type("4A50"); }, "does not emulate");
  expect_error_mentions([] { mapper_from_ale_type("F9"); }, "not an ALE cartridge type");
  expect_error_mentions([] { mapper_from_ale_type("AUTO-DETECT"); }, "autodetect");
}

TEST(CartridgeDetect, SelectFollowsAleCreate) {
  const std::vector<uint8_t> image = tagged_rom(8192, 4096);
  EXPECT_EQ(select_mapper(image.data(), image.size(), "0123"), Mapper::kF8);
  EXPECT_EQ(select_mapper(image.data(), image.size(), "0123", "E0"), Mapper::kE0);
  EXPECT_EQ(select_mapper(image.data(), image.size(), "0123", ""), Mapper::kF8);
  EXPECT_TRUE(ale_forces_f8_swapped("bc24440b59092559a1ec26055fd1270e"));
  EXPECT_TRUE(ale_forces_f8_swapped("75ee371ccfc4f43e7d9b8f24e1266b55"));
  EXPECT_FALSE(ale_forces_f8_swapped("87e79cd41ce136fd4f72cc6e2c161bee"));
  // The md5 wins over any named type.
  EXPECT_EQ(select_mapper(image.data(), image.size(), "75ee371ccfc4f43e7d9b8f24e1266b55", "E0"),
            Mapper::kF8Swapped);
  expect_error_mentions([&] { select_mapper(image.data(), 4096, "0123", "F6"); }, "at least 16384");
}

TEST(CartridgeDetect, RomSizeChecks) {
  EXPECT_EQ(mapper_rom_size(Mapper::kDPC), 10240u);
  EXPECT_EQ(mapper_rom_size(Mapper::kFASC), 12288u);
  EXPECT_NO_THROW(check_rom_size(Mapper::kF8, 8192));
  EXPECT_NO_THROW(check_rom_size(Mapper::k2K, 4096));
  expect_error_mentions([] { check_rom_size(Mapper::kF8, 4096); }, "F8");
  expect_error_mentions([] { check_rom_size(Mapper::kE7, 8192); }, "16384");
}

// The ROMs ale-py 0.12.1 ships, by mapper. ALE's property table
// (DefProps.hxx) names no cartridge type for any of their md5s, so ALE
// autodetects each one; these are the types ALE 0.12.1 itself reports
// ("Bankswitch Type: AUTO-DETECT ==> ...") when it loads them.
struct AleRoms {
  Mapper mapper;
  const char* ids;  // space-separated
};

const AleRoms kAleRoms[] = {
    {Mapper::k2K,
     "basic_math blackjack bowling boxing breakout combat fishing_derby flag_capture "
     "freeway human_cannonball kaboom miniature_golf othello pong skiing space_war "
     "surround tennis tetris tic_tac_toe_3d"},
    {Mapper::k4K,
     "adventure air_raid alien amidar assault atlantis2 atlantis backgammon bank_heist "
     "berzerk carnival casino chopper_command defender demon_attack donkey_kong enduro "
     "entombed frogger frostbite gopher hangman haunted_house ice_hockey "
     "journey_escape keystone_kapers king_kong koolaid laser_gates lost_luggage "
     "maze_craze name_this_game pacman pitfall pooyan qbert riverraid seaquest "
     "space_invaders star_gunner superman trondead turmoil venture video_checkers "
     "video_chess video_cube video_pinball warlords wizard_of_wor word_zapper "
     "yars_revenge"},
    {Mapper::kF8,
     "asterix asteroids battle_zone beam_rider centipede crazy_climber earthworld et "
     "galaxian gravitar hero joust kangaroo krull kung_fu_master mario_bros mr_do "
     "ms_pacman phoenix private_eye sir_lancelot time_pilot up_n_down zaxxon"},
    {Mapper::kF8SC, "elevator_action"},
    {Mapper::kF6, "crossbow double_dunk road_runner solaris"},
    {Mapper::kF6SC, "darkchambers klax"},
    {Mapper::kE0, "jamesbond montezuma_revenge tutankham"},
    {Mapper::kFE, "robotank"},
    {Mapper::kDPC, "pitfall2"},
};

TEST(CartridgeDetect, EveryAlePyRom) {
  const std::filesystem::path dir = testing::ale_roms_dir();
  if (dir.empty()) GTEST_SKIP() << testing::kNoAleRoms;
  size_t count = 0;
  for (const AleRoms& group : kAleRoms) {
    std::istringstream ids(group.ids);
    for (std::string id; ids >> id; ++count) {
      SCOPED_TRACE(id);
      std::ifstream file(dir / (id + ".bin"), std::ios::binary);
      ASSERT_TRUE(file) << (dir / (id + ".bin")).string();
      const std::vector<uint8_t> image((std::istreambuf_iterator<char>(file)),
                                       std::istreambuf_iterator<char>());
      EXPECT_EQ(detect_mapper(image.data(), image.size()), group.mapper);
      EXPECT_EQ(select_mapper(image.data(), image.size(), "", "AUTO-DETECT"), group.mapper);
    }
  }
  EXPECT_EQ(count, 108u);
}

}  // namespace
}  // namespace cule
