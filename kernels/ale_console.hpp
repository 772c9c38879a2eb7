// One console driven the way ALE's ALEInterface drives its own: ALE's reset
// sequence, act() frame by frame, the game's rules stepped on every frame,
// ALE's two RNGs and frame counters. Plain data and CULE_HD functions, so the
// CPU backend (through cule::Console) and the CUDA backend run the same code.
//
//   AleConsole c;                                   // trivially copyable
//   ale_power_on(c, setup, frames, seed, switches); // ALE's Console constructor
//   ale_reset(c, setup, frames);                    // ALE's reset_game
//   ale_reset_or_copy(c, setup, copy, frames);      // the same, as a copy where one applies
//   ale_act(c, setup, frames, action, 1.0f);        // one frame of an action
//   ale_reward(c); ale_terminal(c); ale_lives(c, setup);
//
// The frame buffers live outside the state (FrameBuffers: two screens of
// palette indices); `setup` is the per-ROM configuration a batch shares.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/ale_controls.hpp"
#include "kernels/console.hpp"
#include "kernels/game_modes.hpp"
#include "kernels/game_rules.hpp"
#include "kernels/hd.hpp"
#include "kernels/mt19937.hpp"

namespace cule {

//! ALE seeds its system RNG (System::myRandom) with this "system_random_seed".
constexpr uint32_t kAleSystemSeed = 4753849;
//! ALE's reset: no-op frames, then the RESET switch held for this many frames.
constexpr int kResetNoopFrames = 60;
constexpr int kResetSwitchFrames = 4;

//! What a batch of consoles of one ROM shares, read-only.
struct AleSetup {
  ConsoleConfig console;
  ControllerSetup controllers;
  Game game;  //!< Game::count: ALE has no settings (no rewards, terminals, lives)
};

CULE_HD inline bool ale_has_rules(const AleSetup& s) { return s.game != Game::count; }

//! One console's whole state. Trivially copyable: clone and restore copy it.
struct AleConsole {
  ConsoleState machine;
  Controls controls;
  GameRuleState rules;
  Mt19937 system_rng;             //!< ALE's system RNG: RAM, timer and cartridge RAM at resets
  Mt19937 env_rng;                //!< ALE's environment RNG ("random_seed"): two draws per act
  uint64_t frame_number;          //!< ALE's getFrameNumber
  uint32_t episode_frame_number;  //!< ALE's getEpisodeFrameNumber
  int32_t mode;                   //!< used from the next reset on
  int32_t difficulty;             //!< bit 0: left switch A, bit 1: right switch A
  // During ale_reset's mode selection: the settings as the game's setMode
  // leaves them, started at each of its soft resets (see ale_reset).
  GameRuleState mode_rules;
  uint8_t selecting_mode;
  uint8_t mode_rules_started;
};

CULE_HD inline int32_t ale_reward(const AleConsole& c) { return game_rules_reward(c.rules); }
CULE_HD inline bool ale_terminal(const AleConsole& c) { return game_rules_terminal(c.rules); }
CULE_HD inline int32_t ale_lives(const AleConsole& c, const AleSetup& s) {
  return ale_has_rules(s) ? game_rules_lives(s.game, c.rules) : 0;
}

//! RIOT RAM as the game's settings read it while a RamWatch notes the reads.
struct WatchedRam {
  const uint8_t* bytes;
  RamWatch* watch;

  CULE_HD uint8_t operator[](int i) const {
    watch->read(uint32_t(i));
    return bytes[i];
  }
};

//! Steps the game's settings on the frame just emulated (ALE's
//! RomSettings::step), reading RIOT RAM through `ram`. Only Klax reads
//! cartridge RAM (its F6SC RAM).
template <class Ram>
CULE_HD inline void ale_step_rules_reading(AleConsole& c, const AleSetup& s, const Ram& ram) {
  const uint8_t* cart_ram =
      mapper_ram_bytes(s.console.mapper) >= 128 ? c.machine.cart.ram : nullptr;
  game_rules_step(s.game, c.rules, ram, cart_ram);
  if (c.mode_rules_started) game_rules_step(s.game, c.mode_rules, ram, cart_ram);
}

//! ale_step_rules_reading of the console's RAM (noting the reads where the
//! setup watches RAM, on the host).
CULE_HD inline void ale_step_rules(AleConsole& c, const AleSetup& s) {
#ifndef __CUDA_ARCH__
  if (s.console.ram_watch) {
    ale_step_rules_reading(c, s, WatchedRam{c.machine.riot.ram, s.console.ram_watch});
    return;
  }
#endif
  ale_step_rules_reading(c, s, static_cast<const uint8_t*>(c.machine.riot.ram));
}

//! Emulates `count` frames of `action` with `held` pressed. ALE applies a
//! paddle game's action (a paddle move) on every frame; pressSelect's frames
//! do not step the game's settings.
CULE_HD CULE_DEVICE_NOINLINE void ale_run_frames(AleConsole& c, const AleSetup& s,
                                                 const FrameBuffers& frames, int action,
                                                 HeldSwitch held, int count,
                                                 float paddle_strength = 1.0f) {
  const bool paddles = uses_paddles(s.controllers);
  for (int i = 0; i < count; ++i) {
    if (i == 0 || (paddles && held != HeldSwitch::select)) {
      controls_set_events(c.controls, s.controllers, action, held, paddle_strength);
    }
    const ConsoleInputs inputs = controls_inputs(c.controls, s.controllers, c.difficulty);
    console_run_frame(c.machine, s.console, frames, inputs);
    if (ale_has_rules(s) && held != HeldSwitch::select) ale_step_rules(c, s);
  }
}

CULE_HD inline void ale_count_frame(AleConsole& c) {
  ++c.frame_number;
  ++c.episode_frame_number;
}

//! ALE's System::reset, drawing from the console's system RNG.
CULE_HD inline void ale_system_reset(AleConsole& c, const AleSetup& s, const FrameBuffers& frames) {
  auto draw = [&c] { return mt19937_next(c.system_rng); };
  console_system_reset(c.machine, s.console, frames, draw);
}

//! The console as ALE's Console constructor leaves it: the system RNG seeded,
//! RIOT RAM from 128 draws, the RIOT's timer from the next, a fresh
//! cartridge, the first System::reset; the environment RNG seeded with
//! `seed`; the switches at their power-on positions (`switches`, port B).
CULE_HD inline void ale_power_on(AleConsole& c, const AleSetup& s, const FrameBuffers& frames,
                                 uint32_t seed, uint8_t switches) {
  c = AleConsole{};
  mt19937_seed(c.system_rng, kAleSystemSeed);
  mt19937_seed(c.env_rng, seed);
  auto draw = [&c] { return mt19937_next(c.system_rng); };
  console_power_on(c.machine, s.console, frames, draw);
  c.controls.switches = switches;
  if (ale_has_rules(s)) {
    // A settings object just built (ALE's constructors call reset()).
    game_rules_init(c.rules);
    game_rules_reset(s.game, c.rules);
    c.mode = game_default_mode(s.game);
  }
}

//! ALE's softReset: RESET held for 4 frames. Inside the game's setMode, the
//! settings as setMode leaves them restart here: ALE applies the mode to
//! its settings at setMode's last soft reset.
CULE_HD inline void ale_soft_reset(AleConsole& c, const AleSetup& s, const FrameBuffers& frames) {
  if (c.selecting_mode) {
    c.mode_rules = c.rules;
    game_rules_set_mode(s.game, c.mode_rules, c.mode);
    c.mode_rules_started = 1;
  }
  ale_run_frames(c, s, frames, 0, HeldSwitch::reset, kResetSwitchFrames);
}

//! One frame of player A's `action` (0-17) as ALE's act with frame skip 1 and
//! no sticky actions: ALE still draws its environment RNG twice (players A
//! and B), and turns an action its settings deem illegal into NOOP. Once the
//! game is over ALE refuses to go further: the act draws, and emulates and
//! counts nothing.
CULE_HD inline void ale_act(AleConsole& c, const AleSetup& s, const FrameBuffers& frames,
                            int action, float paddle_strength) {
  mt19937_discard(c.env_rng, 2);
  if (ale_terminal(c)) return;
  if (s.controllers.fire_illegal && action_fires(action)) action = 0;
  ale_run_frames(c, s, frames, action, HeldSwitch::none, 1, paddle_strength);
  ale_count_frame(c);
}

//! The primitives a game's setMode uses (kernels/game_modes.hpp).
struct AleModeContext {
  AleConsole& c;
  const AleSetup& s;
  const FrameBuffers& frames;

  CULE_HD uint8_t read_ram(uint16_t address) {
    if (s.console.ram_watch) s.console.ram_watch->read(address & 0x7F);
    return c.machine.riot.ram[address & 0x7F];
  }
  // A side-effect-free look through the bus, as ALE's System::peek.
  CULE_HD uint8_t read_mapped(uint16_t address) {
    if (s.console.ram_watch && is_riot_ram_address(address)) {
      s.console.ram_watch->read(address & 0x7F);
    }
    ConsoleState copy = c.machine;
    const ConsoleInputs inputs = controls_inputs(c.controls, s.controllers, c.difficulty);
    ConsoleBus<> bus{copy, s.console, frames, inputs};
    return bus.read(address);
  }
  // ALE's pressSelect counts one frame for the whole call.
  CULE_HD void press_select(int count) {
    ale_run_frames(c, s, frames, 0, HeldSwitch::select, count);
    ale_run_frames(c, s, frames, 0, HeldSwitch::none, 1);
    ale_count_frame(c);
  }
  CULE_HD void soft_reset() { ale_soft_reset(c, s, frames); }
  CULE_HD void act(int action) { ale_act(c, s, frames, action, 1.0f); }
  CULE_HD uint32_t env_rng_next() { return mt19937_next(c.env_rng); }
};

//! ALE's reset_game: system reset, 60 no-op frames, RESET held 4 frames, the
//! game's mode selection, RESET again, the game's starting actions. Returns
//! what the mode selection reported (ModeStatus::ok but where a selection
//! loop never ends, which ALE would hang on).
CULE_HD CULE_DEVICE_NOINLINE ModeStatus ale_reset(AleConsole& c, const AleSetup& s,
                                                  const FrameBuffers& frames) {
  c.controls.left_paddle = c.controls.right_paddle = (kPaddleMin + s.controllers.paddle_max) / 2;
  c.episode_frame_number = 0;
  ale_system_reset(c, s, frames);
  ale_run_frames(c, s, frames, 0, HeldSwitch::none, kResetNoopFrames);
  ale_soft_reset(c, s, frames);
  ModeStatus status = ModeStatus::ok;
  if (ale_has_rules(s)) {
    game_rules_reset(s.game, c.rules);
    c.selecting_mode = 1;
    AleModeContext context{c, s, frames};
    status = game_set_mode(s.game, c.mode, context);
    c.selecting_mode = 0;
    if (c.mode_rules_started) {
      c.rules = c.mode_rules;
    } else {
      game_rules_set_mode(s.game, c.rules, c.mode);
    }
    c.mode_rules_started = 0;
  }
  ale_soft_reset(c, s, frames);
  if (ale_has_rules(s)) {
    const int count = game_starting_action_count(s.game);
    for (int k = 0; k < count; ++k) {
      const int action = game_starting_action(s.game, k);
      if (action == kAleResetAction) {
        ale_run_frames(c, s, frames, 0, HeldSwitch::reset, 1);
      } else {
        ale_run_frames(c, s, frames, action, HeldSwitch::none, 1);
      }
    }
  }
  return status;
}

//! The fields of an AleConsole that ale_take_copy sets: a third of its
//! bytes (the RNGs are most of the rest). The machine comes last, and its
//! cartridge RAM last in it, so that the bytes a cartridge scheme uses are
//! the first ale_copied_state_bytes: most schemes have none of that 2 KiB.
struct AleCopiedState {
  Controls controls;
  GameRuleState rules;
  GameRuleState mode_rules;
  uint32_t episode_frame_number;
  uint8_t selecting_mode;
  uint8_t mode_rules_started;
  ConsoleState machine;
};
// Its fields before the machine, X(field) each, for ale_take_copy.
#define CULE_ALE_COPIED_FIELDS(X) \
  X(controls) X(rules) X(mode_rules) X(episode_frame_number) X(selecting_mode) X(mode_rules_started)
static_assert(offsetof(AleCopiedState, machine) + sizeof(ConsoleState) == sizeof(AleCopiedState) &&
                  offsetof(ConsoleState, cart) + sizeof(ConsoleCartridge) == sizeof(ConsoleState) &&
                  offsetof(ConsoleCartridge, ram) + kE7RamBytes == sizeof(ConsoleCartridge),
              "the cartridge RAM ends an AleCopiedState");

//! The bytes of an AleCopiedState that `mapper`'s consoles use, rounded up
//! to 4-byte words: a copy keeps its consoles after the first acts this far
//! apart (AleCopiedBytes), each starting on a word.
CULE_HD constexpr uint32_t ale_copied_state_bytes(Mapper mapper) {
  const size_t used = offsetof(AleCopiedState, machine) + console_used_bytes(mapper);
  return uint32_t((used + 3) / 4 * 4);
}
static_assert(offsetof(AleCopiedState, machine) % 4 == 0 &&
                  ale_copied_state_bytes(Mapper::kE7) == sizeof(AleCopiedState),
              "ale_copied_state_bytes rounds up within the state");

//! ALE's reset as a copy, for a game whose reset leaves the same console
//! whatever the console's past: that console (its RNGs and frame counter
//! aside, which move on by the counts here, as the reset moves them) and its
//! two screens. The TIA keeps through a reset the buffer it draws into and
//! whether the last frame ended partial (and greyed out), and the reset draws
//! the RIOT's starting timer; the result can depend on those, so a copy holds
//! consoles per key (ale_reset_copy_key) that it found. The timer is part
//! of the key only for a copy `by_timer` (of a game without cartridge RAM,
//! whose reset draws nothing else).
//!
//! The reset keeps RIOT RAM too. A console of the copy holds where the RAM
//! bytes its reset read before writing them (noted by a RamWatch) have in
//! the bits that steer the reset the values they had in the trial, and the
//! bytes its reset never wrote keep their values; a key's consoles form a
//! list, tried in turn. Most games
//! clear RAM before reading it: their consoles read none. cule/reset_copy.cpp
//! makes the copy and checks it against the whole reset; the pointers are
//! host or device memory, as the backend's.
//!
//! An episode starts with a few acts after the reset (FIRE, no-ops), and
//! from a copied reset those depend on nothing but the acts: the copy also
//! holds, per console, the consoles after `a` acts (a < acts): FIRE for the
//! first f of them (f < fire_acts) and NOOP after, up to the first act that
//! ends the game or writes a RAM byte the reset kept. Acts draw nothing from
//! the system RNG and nothing reads the frame counters, so those consoles are
//! exact by construction (cule/reset_copy.cpp runs them; see
//! ale_reset_acts_as_copy).
struct AleResetCopy {
  static constexpr uint32_t kTiaKeys = 8;
  const AleConsole* after;    //!< the consoles; null: no copy, every reset is run
  const uint8_t* screens;     //!< screens, 2 x FrameBuffers::size bytes each
  const int16_t* console_of;  //!< per key: its first console in `after` (-1: none, the reset runs)
  const int16_t* next_of;     //!< per console: the next console of its key (-1: none)
  const int16_t* screens_of;  //!< per console: its screens
  // Per console k, the entries [reads_of[k], reads_of[k + 1]) of `read_at`,
  // `read_mask` and `read_value`: the RAM bytes (address & 0x7F) its reset
  // read before writing them, the bits of them that steer the reset, and
  // those bits' values; and [kept_of[k], kept_of[k + 1]) of `kept_at`: the
  // bytes it never wrote.
  const uint32_t* reads_of;
  const uint8_t* read_at;
  const uint8_t* read_mask;
  const uint8_t* read_value;
  const uint32_t* kept_of;
  const uint8_t* kept_at;
  uint32_t consoles;        //!< how many consoles `after` holds
  uint32_t by_timer;        //!< keys are kTiaKeys x kRiotResetTimers (else kTiaKeys)
  uint32_t system_draws;    //!< the reset's draws from the system RNG
  uint32_t env_draws;       //!< ... and from the environment RNG (mode selection)
  uint32_t frames_counted;  //!< its frames ALE counts in getFrameNumber
  // The consoles after the reset and its first acts (null: none).
  const uint8_t* acts_after;       //!< the consoles, each different one once (AleCopiedBytes)
  const uint8_t* acts_screens;     //!< their screens, each different pair once
  const int32_t* acts_console_of;  //!< per (FIRE acts, console, acts): in `acts_after` (-1: none)
  const int32_t* acts_screens_of;  //!< ... and in `acts_screens`
  uint32_t acts_state_bytes;       //!< each console's bytes in `acts_after`
  uint32_t fire_acts;              //!< FIRE acts < this are held
  uint32_t acts;                   //!< acts < this are held
};

//! How many keys `copy` has.
CULE_HD inline uint32_t ale_reset_copy_keys(const AleResetCopy& copy) {
  return AleResetCopy::kTiaKeys * (copy.by_timer ? kRiotResetTimers : 1);
}

//! The key of `c`'s reset in `copy`: the TIA frame state it keeps, and for
//! a copy by timer the timer it will draw (the RNG's words are twisted
//! first when due, as the draw would).
CULE_HD inline uint32_t ale_reset_copy_key(const AleResetCopy& copy, AleConsole& c) {
  const Tia& tia = c.machine.tia;
  const uint32_t key = uint32_t(tia.current_buffer & 1) | uint32_t(tia.partial_frame & 1) << 1 |
                       uint32_t(tia.frame_greyed & 1) << 2;
  if (!copy.by_timer) return key;
  return key * kRiotResetTimers + riot_reset_timer_index(mt19937_peek(c.system_rng));
}

//! Copies `bytes` bytes: on a device sixteen or four at a time where both
//! ends allow (one thread copies a reset's screens, some 67 KB, and its
//! console).
CULE_HD inline void copy_bytes(uint8_t* to, const uint8_t* from, uint32_t bytes) {
#ifdef __CUDA_ARCH__
  const uintptr_t ends =
      reinterpret_cast<uintptr_t>(to) | reinterpret_cast<uintptr_t>(from) | bytes;
  if ((ends & 15) == 0) {
    uint4* to_words = reinterpret_cast<uint4*>(to);
    const uint4* from_words = reinterpret_cast<const uint4*>(from);
#pragma unroll 8
    for (uint32_t k = 0; k < bytes / 16; ++k) to_words[k] = from_words[k];
    return;
  }
  if ((ends & 3) == 0) {
    uint32_t* to_words = reinterpret_cast<uint32_t*>(to);
    const uint32_t* from_words = reinterpret_cast<const uint32_t*>(from);
    for (uint32_t k = 0; k < bytes / 4; ++k) to_words[k] = from_words[k];
    return;
  }
  for (uint32_t k = 0; k < bytes; ++k) to[k] = from[k];
#else
  memcpy(to, from, bytes);
#endif
}

//! Puts the copied console `after` in `c` (each an AleConsole or an
//! AleCopiedState): every field but the mode and difficulty (equal), the
//! RNGs and the frame counter (moved on by the caller). A field missed here
//! would show in reset_copy.cpp's byte-for-byte check.
template <typename To, typename From>
CULE_HD inline void ale_take_copy(To& c, const From& after) {
  c.machine = after.machine;
#define CULE_TAKE_FIELD(field) c.field = after.field;
  CULE_ALE_COPIED_FIELDS(CULE_TAKE_FIELD)
#undef CULE_TAKE_FIELD
}

//! An AleCopiedState as a copy keeps its consoles after the first acts: its
//! first `bytes` (ale_copied_state_bytes of the game's scheme) at `state`.
struct AleCopiedBytes {
  const uint8_t* state;
  uint32_t bytes;
};

// One field of an AleCopiedBytes, at `offset` in it, into `field`.
template <typename Field>
CULE_HD inline void take_copied_field(Field& field, const AleCopiedBytes& after, size_t offset) {
  copy_bytes(reinterpret_cast<uint8_t*>(&field), after.state + offset, uint32_t(sizeof field));
}

//! ale_take_copy from an AleCopiedBytes: the cartridge RAM the scheme lacks
//! (past `bytes`) is left as it is, unused.
CULE_HD inline void ale_take_copy(AleConsole& c, const AleCopiedBytes& after) {
#define CULE_TAKE_COPIED(field)                                                               \
  static_assert(std::is_same_v<decltype(AleConsole::field), decltype(AleCopiedState::field)>, \
                "an AleConsole field as the copy keeps it");                                  \
  take_copied_field(c.field, after, offsetof(AleCopiedState, field));
  CULE_ALE_COPIED_FIELDS(CULE_TAKE_COPIED)
#undef CULE_TAKE_COPIED
  constexpr uint32_t kMachine = offsetof(AleCopiedState, machine);
  copy_bytes(reinterpret_cast<uint8_t*>(&c.machine), after.state + kMachine,
             after.bytes - kMachine);
}

//! Whether `c`'s RAM has the values console k of `copy` read.
CULE_HD inline bool ale_reset_copy_reads_match(const AleResetCopy& copy, int k,
                                               const AleConsole& c) {
  for (uint32_t r = copy.reads_of[k]; r < copy.reads_of[k + 1]; ++r) {
    if ((c.machine.riot.ram[copy.read_at[r]] & copy.read_mask[r]) != copy.read_value[r]) {
      return false;
    }
  }
  return true;
}

//! The console `copy` holds for `c`'s reset (-1: none for its key, RAM,
//! mode and difficulty).
CULE_HD inline int ale_reset_copy_console(const AleResetCopy& copy, AleConsole& c) {
  if (!copy.after) return -1;
  for (int k = copy.console_of[ale_reset_copy_key(copy, c)]; k >= 0; k = copy.next_of[k]) {
    if (copy.after[k].mode == c.mode && copy.after[k].difficulty == c.difficulty &&
        ale_reset_copy_reads_match(copy, k, c)) {
      return k;
    }
  }
  return -1;
}

//! Puts in `c` a console `copy` holds, `after` (held for copy console k),
//! with its screens (pair `screens` of `screens_base`), as the reset and
//! `acts` acts after it leave `c`: the RAM bytes the reset never wrote keep
//! their values, and its RNGs and frame counter move on by their draws and
//! frames.
template <typename Copied>
CULE_HD inline void ale_take_reset_copy(AleConsole& c, const AleResetCopy& copy, int k,
                                        const Copied& after, const uint8_t* screens_base,
                                        uint32_t screens, uint32_t acts,
                                        const FrameBuffers& frames) {
  const uint32_t first_kept = copy.kept_of[k], kept_end = copy.kept_of[k + 1];
  uint8_t kept[128];
  for (uint32_t r = first_kept; r < kept_end; ++r) {
    kept[r - first_kept] = c.machine.riot.ram[copy.kept_at[r]];
  }
  ale_take_copy(c, after);
  for (uint32_t r = first_kept; r < kept_end; ++r) {
    c.machine.riot.ram[copy.kept_at[r]] = kept[r - first_kept];
  }
  mt19937_discard(c.system_rng, copy.system_draws);
  mt19937_discard(c.env_rng, copy.env_draws + 2 * acts);  // ale_act draws twice
  c.frame_number += copy.frames_counted + acts;
  const uint32_t bytes = 2 * frames.size;
  copy_bytes(frames.pixels, screens_base + size_t(screens) * bytes, bytes);
}

//! ALE's reset_game (ale_reset) of `c`, as a copy where `copy` has one.
CULE_HD inline ModeStatus ale_reset_or_copy(AleConsole& c, const AleSetup& s,
                                            const AleResetCopy& copy, const FrameBuffers& frames) {
  const int k = ale_reset_copy_console(copy, c);
  if (k < 0) return ale_reset(c, s, frames);
  ale_take_reset_copy(c, copy, k, copy.after[k], copy.screens, uint32_t(copy.screens_of[k]), 0,
                      frames);
  return ModeStatus::ok;
}

//! ALE's reset_game of `c` and then `acts` frames of ale_act (paddle
//! strength 1), FIRE for the first `fire_acts` (<= acts) and NOOP after, as
//! a copy where `copy` holds one: true when it did (else `c` plays on as
//! before: a look at its RNG twists no more than the next draw would).
CULE_HD inline bool ale_reset_acts_as_copy(AleConsole& c, const AleResetCopy& copy,
                                           const FrameBuffers& frames, uint32_t acts,
                                           uint32_t fire_acts) {
  if (!copy.acts_after || acts >= copy.acts || fire_acts >= copy.fire_acts) return false;
  const int k = ale_reset_copy_console(copy, c);
  if (k < 0) return false;
  const size_t entry = (size_t(fire_acts) * copy.consoles + size_t(k)) * copy.acts + acts;
  const int32_t held = copy.acts_console_of[entry];
  if (held < 0) return false;  // the game ended within those acts, or they wrote a kept byte
  const AleCopiedBytes after{copy.acts_after + size_t(held) * copy.acts_state_bytes,
                             copy.acts_state_bytes};
  ale_take_reset_copy(c, copy, k, after, copy.acts_screens, uint32_t(copy.acts_screens_of[entry]),
                      acts, frames);
  return true;
}

}  // namespace cule
