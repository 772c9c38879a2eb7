// The Atari 2600 as ALE emulates it: the 6507, the RIOT, the TIA and the
// cartridge on the 13-bit bus, and the frame loop.
//
// Usage:
//   cule::ConsoleState console{};                 // trivially copyable state
//   cule::console_power_on(console, config, frames, draw);      // draw(): ALE's system RNG
//   cule::console_system_reset(console, config, frames, draw);
//   cule::console_run_frame(console, config, frames, inputs);  // one TV frame
//
// Randomness: ALE fills RIOT RAM, the RIOT timer and cartridge RAM from its
// system RNG; the caller's `draw()` makes those draws (host or device).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/cartridge.hpp"
#include "kernels/hd.hpp"
#include "kernels/m6502.hpp"
#include "kernels/riot.hpp"
#include "kernels/tia.hpp"

namespace cule {

//! ALE runs at most this many instructions for one frame.
constexpr int kMaxInstructionsPerFrame = 25000;

//! Which RIOT RAM bytes a console's run read before it wrote them, and which
//! it wrote (index = address & 0x7F): what the run's result can depend on.
//! Host only: cule/reset_copy.cpp watches ALE's reset with it.
struct RamWatch {
  uint8_t read_first[128];
  uint8_t written[128];

  CULE_HD void read(uint32_t i) {
    if (!written[i]) read_first[i] = 1;
  }
  CULE_HD void write(uint32_t i) { written[i] = 1; }
};

//! Per-ROM read-only configuration, shared by every console of a batch.
struct ConsoleConfig {
  TiaConfig tia;
  Mapper mapper;
  //! The cartridge image (device memory on the GPU), preceded by its code
  //! predecoded for the decoded step (predecoded_code; the host's
  //! PredecodedRom lays them out): a fixed distance from `rom` for each
  //! scheme, so the CPU loop's registers hold no pointer more.
  const uint8_t* rom;
  uint32_t rom_size;
  //! Set (host only): every RIOT RAM access of the consoles run with this
  //! configuration is noted here, by a slower CPU loop.
  RamWatch* ram_watch = nullptr;
};

//! The predecoded code before `rom` (ConsoleConfig::rom):
//! cartridge_code_entries(mapper) of them, at cartridge_code_index.
CULE_HD CULE_FORCE_INLINE const PredecodedCode* predecoded_code(const uint8_t* rom, Mapper mapper) {
  return reinterpret_cast<const PredecodedCode*>(rom) - cartridge_code_entries(mapper);
}

//! What the players and the console switches do during a frame.
struct ConsoleInputs {
  uint8_t swcha;  //!< port A: joystick directions (and paddle buttons), 0 = pressed
  uint8_t swchb;  //!< port B: console switches
  TiaInputs tia;  //!< fire buttons and paddle resistances
};

//! Cartridge state large enough for every supported scheme (E7 has 2 KiB RAM).
using ConsoleCartridge = BasicCartridgeState<kE7RamBytes>;

//! One console. Trivially copyable: clone and restore are copies (the frame
//! buffers live outside it).
struct ConsoleState {
  Cpu cpu;
  Riot riot;
  Tia tia;
  uint8_t data_bus;              // last value on the data bus
  uint8_t last_access_was_read;  // for WSYNC
  ConsoleCartridge cart;         // last, its RAM at the end (see console_copy_used)
};

//! The bytes of a console that a cartridge scheme uses: all but the
//! cartridge RAM the scheme lacks (most have none of its 2 KiB), which ends
//! the console.
CULE_HD constexpr size_t console_used_bytes(Mapper mapper) {
  return offsetof(ConsoleState, cart) + offsetof(ConsoleCartridge, ram) +
         size_t(mapper_ram_bytes(mapper));
}

//! Copies the part of a console that a cartridge scheme uses
//! (console_used_bytes). For device code: on the host the words would
//! alias the console's fields.
CULE_HD inline void console_copy_used(ConsoleState& to, const ConsoleState& from, Mapper mapper) {
  static_assert(sizeof(ConsoleState) % 4 == 0 && alignof(ConsoleState) >= 4, "copied in words");
  const size_t words = (console_used_bytes(mapper) + 3) / 4;
  uint32_t* out = reinterpret_cast<uint32_t*>(&to);
  const uint32_t* in = reinterpret_cast<const uint32_t*>(&from);
  for (size_t k = 0; k < words; ++k) out[k] = in[k];
}

// Whether ConsoleBus reads the ROM and reads and writes RIOT RAM inline
// (see ConsoleBus::read).
#ifndef CULE_BUS_FAST_PATHS
#define CULE_BUS_FAST_PATHS 1
#endif

// Whether the common cartridge schemes get a CPU loop each, compiled for
// that scheme, or share the loop for any scheme (0: a build for
// benchmarks/gpu/check.sh --sweep to compare).
#ifndef CULE_CPU_LOOP_PER_SCHEME
#define CULE_CPU_LOOP_PER_SCHEME 1
#endif

// Whether the console's bus reads the CPU's code ahead for the decoded step,
// the device's, from the ROM's predecoded code (CodeAhead,
// predecoded_code). 0: it does not (a build for
// benchmarks/gpu/check.sh --sweep to compare).
#ifndef CULE_DEVICE_CODE_AHEAD
#define CULE_DEVICE_CODE_AHEAD 1
#endif

// How many instructions apart the device's CPU loop draws up to the beam,
// all of a warp's consoles together (0: only at the accesses that need it,
// as the host; see console_run_instructions).
#ifndef CULE_DEVICE_DRAW_EVERY
#define CULE_DEVICE_DRAW_EVERY 4
#endif

// How many cycles a console may be ahead of the earliest of its warp and
// still run its next instruction in the device's CPU loop (see
// WarpSchedule); -1: every console runs an instruction each
// iteration, whatever its clock (a build for benchmarks/gpu/check.sh
// --sweep to compare).
#ifndef CULE_DEVICE_WARP_SLACK
#define CULE_DEVICE_WARP_SLACK 3
#endif

// The same for the host's CPU loop (0, as ALE: only at the accesses). A
// host build with the device's 4 (CMAKE_CXX_FLAGS=-DCULE_HOST_DRAW_EVERY=4)
// runs the device's drawing on the host, where callgrind counts it (see
// DEVELOPERS.md); the results are the same.
#ifndef CULE_HOST_DRAW_EVERY
#define CULE_HOST_DRAW_EVERY 0
#endif

//! Whether the CPU's `address` is RIOT RAM (A12 and A9 clear, A7 set).
CULE_HD constexpr bool is_riot_ram_address(uint16_t address) {
  return (address & 0x1280) == 0x0080;
}

//! ConsoleBus's mapper when it is only known at run time (from the config).
constexpr int kAnyMapper = -1;
//! The same, with every RIOT RAM access out of line, where config.ram_watch
//! notes it (the host's loop for consoles whose RAM is watched).
constexpr int kWatchedMapper = -2;

//! The 6507's view of the machine. ALE decodes 64-byte pages of the 13-bit
//! bus: A12 selects the cartridge; otherwise A7 clear is the TIA, A7 set with
//! A9 clear is RIOT RAM and A7, A9 set the RIOT's ports and timer. Devices
//! see the CPU's full 16-bit address. `kMapper`, when not kAnyMapper, is the
//! cartridge scheme fixed at compile time (it must be config.mapper), which
//! folds the scheme's decisions out of every access.
//!
//! The bus keeps the CPU's time (`cpu`, which may be a copy of c.cpu), the
//! data bus and the frame's end in its own members, which the compiler can
//! hold in registers while the CPU runs: the console's byte stores could
//! alias any field of `c`. store() writes them back to the console.
template <int kMapper = kAnyMapper>
struct ConsoleBus {
  ConsoleState& c;
  const ConsoleConfig& config;
  const FrameBuffers& frames;
  const ConsoleInputs& inputs;
  Cpu& cpu = c.cpu;
  // Copies for the read path: the console's byte stores could alias `config`.
  const Mapper config_mapper = config.mapper;
  const uint8_t* const rom = config.rom;
  uint8_t data_bus = c.data_bus;
  bool last_access_was_read = c.last_access_was_read != 0;
  bool stop = false;  // the TIA ended the frame: stop after this instruction
  // Set by a read of the RIOT's ports or timer: the CPU may be waiting for
  // the timer (see console_skip_timer_wait).
  bool riot_read = false;

  CULE_HD CULE_FORCE_INLINE void store() {
    c.data_bus = data_bus;
    c.last_access_was_read = last_access_was_read;
  }

  CULE_HD CULE_FORCE_INLINE Mapper mapper() const {
    if constexpr (kMapper < 0) {
      return config_mapper;
    } else {
      return static_cast<Mapper>(kMapper);
    }
  }

  // The CPU's accesses inline only what most of them reach, the ROM and
  // RIOT RAM; the rest is one call (on the device) that takes values, not
  // the bus, so the CPU's registers and the bus stay in registers. With
  // CULE_BUS_FAST_PATHS 0 every access is that call (a build for
  // benchmarks/gpu/check.sh --sweep to compare).
  CULE_HD CULE_FORCE_INLINE static bool is_riot_ram(uint16_t a, Mapper mapper) {
    return kMapper != kWatchedMapper && is_riot_ram_address(a) && !cartridge_snoops(mapper);
  }

  CULE_HD CULE_FORCE_INLINE uint8_t read(uint16_t address) {
    const uint16_t a = address & 0x1FFF;
    uint8_t value;
    if (CULE_BUS_FAST_PATHS && CULE_LIKELY(a & 0x1000) &&
        cartridge_read_plain(c.cart, mapper(), rom, address, value)) {
      // a ROM byte: opcodes and most operands
    } else if (CULE_BUS_FAST_PATHS && is_riot_ram(a, mapper())) {
      value = c.riot.ram[a & 0x7F];
    } else {
      const DeviceRead device =
          read_device(c, config, frames, inputs, mapper(), address, cpu.cycles, data_bus);
      value = device.value;
      riot_read = riot_read || device.riot_io;
    }
    took(address, value);
    return value;
  }

  //! The opcode at `pc`, the two bytes after it and the opcode's table
  //! entry, where the three bytes are plain ROM bytes (CodeAhead: the
  //! decoded step, the device's), from the ROM's predecoded code.
  CULE_HD CULE_FORCE_INLINE CodeAhead read_code_ahead(uint16_t pc) const {
    if (CULE_DEVICE_CODE_AHEAD && CULE_BUS_FAST_PATHS && CULE_LIKELY(pc & 0x1000)) {
      const int32_t index = cartridge_code_index(c.cart, mapper(), pc);
      if (index >= 0) return code_ahead(predecoded_code(rom, mapper()) + index);
    }
    return CodeAhead{};
  }

  //! What any read of `value` does to the bus; the step calls it for a
  //! byte it took from the code read ahead.
  CULE_HD CULE_FORCE_INLINE void took(uint16_t, uint8_t value) {
    data_bus = value;
    last_access_was_read = true;
  }

  CULE_HD CULE_FORCE_INLINE void write(uint16_t address, uint8_t value) {
    const uint16_t a = address & 0x1FFF;
    if (CULE_BUS_FAST_PATHS && is_riot_ram(a, mapper())) {
      c.riot.ram[a & 0x7F] = value;
    } else {
      apply(write_device(c, config, frames, mapper(), address, value, cpu.cycles,
                         last_access_was_read));
    }
    data_bus = value;
    last_access_was_read = false;
  }

  CULE_HD CULE_FORCE_INLINE void apply(TiaWriteEffect effect) {
    cpu.cycles += effect.wait_cycles;
    stop = stop || effect.end_frame;
  }

  //! What read_device read; `riot_io`: the RIOT's ports or timer.
  struct DeviceRead {
    uint8_t value;
    bool riot_io;
  };

  // The out-of-line parts take what they use, not the bus: the bus's
  // address never escapes, so its members stay in registers.

  //! Any read but those read() makes itself (unless CULE_BUS_FAST_PATHS is
  //! 0): the TIA, the RIOT's ports and timer, a cartridge's switching and
  //! RAM ports, and everything for a scheme that snoops outside its ROM (3F).
  CULE_HD CULE_HOST_INLINE static DeviceRead read_device(ConsoleState& c,
                                                         const ConsoleConfig& config,
                                                         const FrameBuffers& frames,
                                                         const ConsoleInputs& inputs, Mapper mapper,
                                                         uint16_t address, uint32_t cycles,
                                                         uint8_t data_bus) {
    const uint16_t a = address & 0x1FFF;
    uint8_t value;
    if (a & 0x1000) {
      if (!cartridge_read_plain(c.cart, mapper, config.rom, address, value)) {
        value = read_cartridge(c, config, address, cycles);
      }
    } else if (cartridge_snoops(mapper) &&
               cartridge_snoop_read(c.cart, mapper, config.rom, address, value)) {
      // the cartridge answers in place of the TIA (3F)
    } else if (!(a & 0x0080)) {
      value = read_tia(c, frames, inputs, address, cycles, data_bus);
    } else if (a & 0x0200) {
      return {riot_read_io(c.riot, address, cycles, inputs.swcha, inputs.swchb), true};
    } else {
      value = c.riot.ram[a & 0x7F];
      if constexpr (kMapper == kWatchedMapper) config.ram_watch->read(a & 0x7F);
    }
    return {value, false};
  }

  //! Any write but those write() makes itself (see read_device).
  CULE_HD CULE_HOST_INLINE static TiaWriteEffect write_device(
      ConsoleState& c, const ConsoleConfig& config, const FrameBuffers& frames, Mapper mapper,
      uint16_t address, uint8_t value, uint32_t cycles, bool last_access_was_read) {
    const uint16_t a = address & 0x1FFF;
    if (a & 0x1000) {
      return write_cartridge(c, config, frames, address, value, cycles, last_access_was_read);
    }
    if (cartridge_snoops(mapper)) cartridge_snoop_write(c.cart, mapper, address, value);
    if (!(a & 0x0080)) {
      return write_tia(c, config, frames, address, value, cycles, last_access_was_read);
    }
    if (a & 0x0200) {
      riot_write_io(c.riot, address, value, cycles);
    } else {
      c.riot.ram[a & 0x7F] = value;
      if constexpr (kMapper == kWatchedMapper) config.ram_watch->write(a & 0x7F);
    }
    return {0, false};
  }

  CULE_HD CULE_DEVICE_NOINLINE static uint8_t read_cartridge(ConsoleState& c,
                                                             const ConsoleConfig& config,
                                                             uint16_t address, uint32_t cycles) {
    return cartridge_read(c.cart, config.mapper, config.rom, address, cycles);
  }

  CULE_HD CULE_DEVICE_NOINLINE static TiaWriteEffect write_cartridge(
      ConsoleState& c, const ConsoleConfig& config, const FrameBuffers& frames, uint16_t address,
      uint8_t value, uint32_t cycles, bool last_access_was_read) {
    if (cartridge_write(c.cart, config.mapper, address, value)) {
      return write_tia(c, config, frames, address, value, cycles, last_access_was_read);
    }
    return {0, false};
  }

  // Kept out of line: the CPU inlines the bus into each of its 256 opcodes.
  CULE_HD CULE_NOINLINE static uint8_t read_tia(ConsoleState& c, const FrameBuffers& frames,
                                                const ConsoleInputs& inputs, uint16_t address,
                                                uint32_t cycles, uint8_t data_bus) {
    return tia_read(c.tia, frames, address, cycles, data_bus, inputs.tia);
  }

  //! Draws the frame up to colour clock `clock` (see console_run_instructions).
  CULE_HD CULE_NOINLINE static void draw_up_to(ConsoleState& c, const FrameBuffers& frames,
                                               int clock) {
    tia_update(c.tia, frames, clock);
  }

  CULE_HD CULE_NOINLINE static TiaWriteEffect write_tia(
      ConsoleState& c, const ConsoleConfig& config, const FrameBuffers& frames, uint16_t address,
      uint8_t value, uint32_t cycles, bool last_access_was_read) {
    const TiaWriteEffect effect =
        tia_write(c.tia, config.tia, frames, address, value, cycles, last_access_was_read);
    if (effect.end_frame) c.tia.partial_frame = 0;
    return effect;
  }
};

//! Sets the system cycle counter back to zero, as ALE's System::resetCycles.
CULE_HD inline void console_rebase_cycles(ConsoleState& c, const ConsoleConfig& config) {
  const uint32_t cycles = c.cpu.cycles;
  riot_rebase_cycles(c.riot, cycles);
  tia_rebase_cycles(c.tia, cycles);
  cartridge_rebase_cycles(c.cart, config.mapper, cycles);
  c.cpu.cycles = 0;
}

//! ALE's System::reset: devices to their reset state, then the CPU from the
//! reset vector. `draw()` is ALE's system RNG: this reset draws the RIOT's
//! timer, then one byte per byte of cartridge RAM.
template <class Draw>
CULE_HD void console_system_reset(ConsoleState& c, const ConsoleConfig& config,
                                  const FrameBuffers& frames, Draw& draw) {
  console_rebase_cycles(c, config);
  riot_reset(c.riot, draw());
  // The TIA keeps which buffer it draws into and whether a frame is under way.
  const Tia previous = c.tia;
  tia_reset(c.tia, config.tia, frames, c.cpu.cycles);
  c.tia.current_buffer = previous.current_buffer;
  c.tia.partial_frame = previous.partial_frame;
  c.tia.frame_greyed = previous.frame_greyed;
  c.tia.scanline_count_for_last_frame = previous.scanline_count_for_last_frame;
  c.tia.current_scanline = previous.current_scanline;
  const uint16_t cart_bytes = mapper_ram_bytes(config.mapper);
  for (uint16_t i = 0; i < cart_bytes; ++i) c.cart.ram[i] = uint8_t(draw());
  cartridge_reset(c.cart, config.mapper, nullptr, c.cpu.cycles);
  const ConsoleInputs idle{
      0xFF,
      0xFF,
      {0, {kMaximumResistance, kMaximumResistance, kMaximumResistance, kMaximumResistance}}};
  ConsoleBus<> bus{c, config, frames, idle};
  cpu_reset(c.cpu, bus);
  bus.store();
}

//! A console as ALE builds it, drawing from `draw()` (ALE's system RNG): RIOT
//! RAM from 128 draws, the RIOT's timer from the next, a fresh cartridge, and
//! the first System::reset.
template <class Draw>
CULE_HD void console_power_on(ConsoleState& c, const ConsoleConfig& config,
                              const FrameBuffers& frames, Draw& draw) {
  c = ConsoleState{};
  for (int i = 0; i < 128; ++i) c.riot.ram[i] = uint8_t(draw());
  riot_reset(c.riot, draw());
  cartridge_power_on(c.cart, config.mapper, config.rom_size, nullptr, 0);
  c.cpu.SP = 0xFF;
  console_system_reset(c, config, frames, draw);
}

//! The loop nearly every game waits for its timer with, `LDA INTIM` (or
//! LDX, LDY) then `BNE` back to it, run in closed form: with the CPU at
//! that BNE, runs whole turns of the loop (branch, read) while the reads
//! change nothing (the timer has not passed zero), each as ALE would run it,
//! and stops at the first read of 0 or before one past zero. Returns the
//! instructions run, at most `budget`. The loop's bytes must be plain ROM.
template <int kMapper>
CULE_HD CULE_FORCE_INLINE int console_skip_timer_wait(ConsoleBus<kMapper>& bus, int budget) {
  Cpu& cpu = bus.cpu;
  const ConsoleState& c = bus.c;
  if (cpu.z_result == 0 || cartridge_snoops(bus.mapper())) return 0;  // BNE falls through
  const uint16_t pc = cpu.PC;
  const uint16_t load = static_cast<uint16_t>(pc - 3);
  if (!(load & pc & 0x1000)) return 0;
  uint8_t code[5];
  for (int k = 0; k < 5; ++k) {
    if (!cartridge_read_plain(c.cart, bus.mapper(), bus.rom, uint16_t(load + k), code[k])) {
      return 0;
    }
  }
  const uint16_t timer = static_cast<uint16_t>(code[1] | (code[2] << 8));
  const bool loads = code[0] == 0xAD || code[0] == 0xAE || code[0] == 0xAC;  // LDA, LDX, LDY abs
  if (!loads || code[3] != 0xD0 || code[4] != 0xFB || (timer & 0x1280) != 0x0280 ||
      !riot_reads_timer(timer)) {
    return 0;
  }
  // A turn: BNE taken (3 cycles, 4 across a page), then the 4-cycle load,
  // which reads the timer at its last cycle.
  const uint32_t turn = (detail::crosses_page(uint16_t(pc + 2), load) ? 4 : 3) + 4;
  uint32_t cycles = cpu.cycles;
  int turns = 0, value = -1;
  while (2 * (turns + 1) <= budget) {
    const int next = riot_timer_count(c.riot, cycles + turn);
    if (next < 0) break;
    cycles += turn;
    value = next;
    ++turns;
    if (next == 0) break;
  }
  if (turns == 0) return 0;
  cpu.cycles = cycles;
  const uint8_t v = static_cast<uint8_t>(value);
  if (code[0] == 0xAD) cpu.A = v;
  if (code[0] == 0xAE) cpu.X = v;
  if (code[0] == 0xAC) cpu.Y = v;
  cpu.n_result = v;
  cpu.z_result = v;
  bus.data_bus = v;
  bus.last_access_was_read = true;
  return 2 * turns;
}

//! How far ahead of its warp's earliest a console still waits, in CPU
//! cycles (WarpSchedule): a TV frame's.
constexpr uint32_t kWarpWaitHorizon = 262 * kClocksPerScanline / 3;

//! Whether a console `ahead` cycles ahead of its warp's earliest runs its
//! next instruction, the warp's slack `slack` cycles (WarpSchedule; -1:
//! every console runs).
CULE_HD constexpr bool warp_lane_runs(uint32_t ahead, int slack) {
  return ahead <= uint32_t(slack) || ahead > kWarpWaitHorizon;
}

//! When the CPU loop runs a console's next instruction (runs_now, its CPU
//! clock at `cycles`, rebased to 0 when a new frame begins). On the GPU
//! only those of the lanes that reach this point together (__activemask)
//! within CULE_DEVICE_WARP_SLACK cycles of their earliest run, and the
//! others wait. Consoles of one game then run the same code side by side,
//! since a game's code follows the beam (WSYNC, the timer): in
//! benchmarks/gpu/warp_dispatch's model of a Pong warp, 1.8 distinct PCs
//! an iteration instead of 20, for 3% more iterations. The earliest lane
//! always runs, so the warp moves on; waiting changes when a console runs
//! an instruction, never what the instruction does. A console more than
//! kWarpWaitHorizon cycles ahead runs too, as it ran before (a frame that
//! goes on from one that ended partial, whose clock was not rebased, or a
//! long timer wait): waiting would leave it to run alone after the others'
//! frames. On the host, where a console has no warp, and on GPUs before
//! compute capability 8.0 (no __reduce_min_sync), consoles never wait
//! (kMayWait false). A test's schedule, with kMayWait and runs_now, makes
//! the host's consoles wait as the device's do.
struct WarpSchedule {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && CULE_DEVICE_WARP_SLACK >= 0
  static constexpr bool kMayWait = true;
  CULE_HD CULE_FORCE_INLINE bool runs_now(uint32_t cycles) const {
    return warp_lane_runs(cycles - __reduce_min_sync(__activemask(), cycles),
                          CULE_DEVICE_WARP_SLACK);
  }
#else
  static constexpr bool kMayWait = false;
  CULE_HD CULE_FORCE_INLINE bool runs_now(uint32_t) const { return true; }
#endif
};

//! Runs instructions until the frame ends, at most ALE's 25,000 a frame.
//! The CPU runs on a local copy, which the compiler can keep in registers.
//!
//! The TIA draws when an access needs the picture up to its clock (mostly
//! the writes that change it), so the consoles of a warp draw at different
//! iterations of this loop, each while the others wait. With kDrawEvery > 0
//! the loop also draws up to the beam every kDrawEvery instructions, at the
//! same iteration in every console, leaving the accesses little to draw.
//! Drawing early shows nothing ALE would not (ALE draws at every access),
//! except in a frame that ends partial: ALE leaves its pixels past the last
//! access stale and their collisions unlatched. So the loop draws ahead
//! only in frames that will be run again if they end partial, and only in
//! rows that a frame of that run draws over first
//! (FrameBuffers::draw_ahead_rows).
//!
//! On the GPU a console whose clock is ahead of its warp waits (Schedule,
//! by default WarpSchedule); the iterations it waits draw ahead as the
//! others' do, and do not count towards the limit of instructions.
//!
//! kDecodedStep: the CPU's decoded step, which the device runs, or the
//! per-opcode one (kCpuStepDecoded: the one this processor runs fastest).
template <int kMapper, int kDrawEvery = 0, bool kDecodedStep = kCpuStepDecoded,
          class Schedule = WarpSchedule>
CULE_HD CULE_HOST_NOINLINE void console_run_instructions(ConsoleState& c,
                                                         const ConsoleConfig& config,
                                                         const FrameBuffers& frames,
                                                         const ConsoleInputs& inputs) {
  Cpu cpu = c.cpu;
  ConsoleBus<kMapper> bus{c, config, frames, inputs, cpu};
  const bool draws_ahead = kDrawEvery > 0 && frames.draw_ahead_rows > 0;
  const int ahead_limit = c.tia.clock_start_display + kClocksPerScanline * frames.draw_ahead_rows;
  // Its own count of iterations: n also counts the instructions of the timer
  // waits run in closed form, which differ from console to console.
  int until_drawing = kDrawEvery;
  Schedule schedule{};
  for (int n = 0; n < kMaxInstructionsPerFrame && !bus.stop && !cpu.jammed; ++n) {
    if constexpr (kDrawEvery > 0) {
      if (draws_ahead && --until_drawing == 0) {
        until_drawing = kDrawEvery;
        const int beam = int(cpu.cycles * 3);
        ConsoleBus<kMapper>::draw_up_to(c, frames, beam < ahead_limit ? beam : ahead_limit);
      }
    }
    if constexpr (Schedule::kMayWait) {
      if (!schedule.runs_now(cpu.cycles)) {
        --n;  // waiting, it runs no instruction
        continue;
      }
    }
    cpu_step<kDecodedStep>(cpu, bus);
    if (bus.riot_read) {
      bus.riot_read = false;
      n += console_skip_timer_wait(bus, kMaxInstructionsPerFrame - 1 - n);
    }
  }
  bus.store();
  c.cpu = cpu;
}

// The explicit instantiations of the host's CPU loops, those of
// console_run_frame_here's switch: CULE_HOST_CPU_LOOP(, mapper) instantiates
// one (cule/cpu_loop.cpp), CULE_HOST_CPU_LOOPS(extern) declares them all
// instantiated elsewhere.
#define CULE_HOST_CPU_LOOP(prefix, mapper)                                     \
  prefix template void console_run_instructions<mapper, CULE_HOST_DRAW_EVERY>( \
      ConsoleState&, const ConsoleConfig&, const FrameBuffers&, const ConsoleInputs&);
// clang-format off
#define CULE_HOST_CPU_LOOPS(prefix)              \
  CULE_HOST_CPU_LOOP(prefix, int(Mapper::k2K))   \
  CULE_HOST_CPU_LOOP(prefix, int(Mapper::k4K))   \
  CULE_HOST_CPU_LOOP(prefix, int(Mapper::kF8))   \
  CULE_HOST_CPU_LOOP(prefix, int(Mapper::kF6))   \
  CULE_HOST_CPU_LOOP(prefix, kAnyMapper)         \
  CULE_HOST_CPU_LOOP(prefix, kWatchedMapper)
// clang-format on

#if !defined(__CUDACC__) && defined(CULE_CPU_LOOPS_IN_LIBRARY)
// Code linked with the library takes the loops it compiled (cule/cpu_loop.cpp,
// once per scheme): they are the project's slowest code to compile, a minute
// or more each, which every file that runs a console would repeat.
CULE_HOST_CPU_LOOPS(extern)
#endif

//! Readies the console to run a frame's instructions: a new frame unless the
//! last one ended partial (out of instructions). Returns whether it is new.
CULE_HD CULE_FORCE_INLINE bool console_begin_frame(ConsoleState& c, const ConsoleConfig& config) {
  Tia& tia = c.tia;
  const bool new_frame = !tia.partial_frame;
  if (new_frame) {
    // Keep the beam's place on its scanline: games may position objects
    // during VSYNC.
    const uint32_t clocks = tia_clocks_into_frame(tia, c.cpu.cycles) % kClocksPerScanline;
    console_rebase_cycles(c, config);
    tia_start_frame(tia, config.tia, int32_t(clocks));
  }
  tia.partial_frame = 1;
  return new_frame;
}

//! Runs the console for one TV frame in place (see console_run_frame), with
//! a CPU loop for each common cartridge scheme or the one for any scheme
//! (`kAnyScheme`), drawing ahead every kDrawEvery instructions, with the
//! CPU's decoded step or the per-opcode one, waiting where Schedule says
//! (see console_run_instructions).
template <int kDrawEvery = 0, bool kLoopPerScheme = CULE_CPU_LOOP_PER_SCHEME,
          int kAnyScheme = kAnyMapper, bool kDecodedStep = kCpuStepDecoded,
          class Schedule = WarpSchedule>
CULE_HD CULE_FORCE_INLINE void console_run_frame_here(ConsoleState& c, const ConsoleConfig& config,
                                                      const FrameBuffers& frames,
                                                      const ConsoleInputs& inputs) {
  Tia& tia = c.tia;
  const bool new_frame = console_begin_frame(c, config);
  if constexpr (kLoopPerScheme) {
    constexpr int k2K = int(Mapper::k2K), k4K = int(Mapper::k4K);
    constexpr int kF8 = int(Mapper::kF8), kF6 = int(Mapper::kF6);
    switch (config.mapper) {
      case Mapper::k2K:
        console_run_instructions<k2K, kDrawEvery, kDecodedStep, Schedule>(c, config, frames,
                                                                          inputs);
        break;
      case Mapper::k4K:
        console_run_instructions<k4K, kDrawEvery, kDecodedStep, Schedule>(c, config, frames,
                                                                          inputs);
        break;
      case Mapper::kF8:
        console_run_instructions<kF8, kDrawEvery, kDecodedStep, Schedule>(c, config, frames,
                                                                          inputs);
        break;
      case Mapper::kF6:
        console_run_instructions<kF6, kDrawEvery, kDecodedStep, Schedule>(c, config, frames,
                                                                          inputs);
        break;
      default:
        console_run_instructions<kAnyScheme, kDrawEvery, kDecodedStep, Schedule>(c, config, frames,
                                                                                 inputs);
        break;
    }
  } else {
    console_run_instructions<kAnyScheme, kDrawEvery, kDecodedStep, Schedule>(c, config, frames,
                                                                             inputs);
  }
  tia_flush(tia, frames);
  tia.current_scanline = int32_t(tia_clocks_into_frame(tia, c.cpu.cycles) / kClocksPerScanline);
  uint32_t& undrawn = tia.undrawn_pixels[tia.current_buffer];
  const uint32_t frame_pixels = uint32_t(kScreenWidth * config.tia.height);
  if (frames.draw) {
    // A new frame rewrites its buffer up to where the beam stopped.
    if (new_frame && tia.frame_pixel >= undrawn) undrawn = 0;
  } else {
    // ALE would have drawn up to the beam, and up to 8 HMOVE-blank pixels
    // past it.
    const uint32_t stale = tia.frame_pixel + 8 < frame_pixels ? tia.frame_pixel + 8 : frame_pixels;
    if (stale > undrawn) undrawn = stale;
  }
  if (tia.partial_frame) {
    if (!tia.frame_greyed) {
      if (frames.draw && !frames.may_redo) {
        tia_grey_out_frame(tia, config.tia, frames, c.cpu.cycles);
      } else {
        undrawn = frame_pixels;  // the grey-out reaches the bottom of the frame
      }
    }
    tia.frame_greyed = 1;
  } else {
    tia.scanline_count_for_last_frame = tia.current_scanline;
    tia.frame_greyed = 0;
  }
}

//! Runs the console for one TV frame (ALE's TIA::update): up to 25,000
//! instructions, until the TIA reports the end of the frame.
CULE_HD CULE_DEVICE_NOINLINE void console_run_frame(ConsoleState& c, const ConsoleConfig& config,
                                                    const FrameBuffers& frames,
                                                    const ConsoleInputs& inputs) {
#if defined(__CUDA_ARCH__)
  // The batch's consoles lie one after another, so the 32 threads of a warp
  // reading one field read 32 cache lines; a thread's local memory
  // interleaves the threads' words, one line for the 32. The frame runs on
  // a local copy.
  ConsoleState local;
  console_copy_used(local, c, config.mapper);
  console_run_frame_here<CULE_DEVICE_DRAW_EVERY>(local, config, frames, inputs);
  console_copy_used(c, local, config.mapper);
#else
  if (config.ram_watch) {
    console_run_frame_here<CULE_HOST_DRAW_EVERY, false, kWatchedMapper>(c, config, frames, inputs);
  } else {
    console_run_frame_here<CULE_HOST_DRAW_EVERY>(c, config, frames, inputs);
  }
#endif
}

}  // namespace cule
