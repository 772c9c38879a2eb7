// ALE's reset of a game as a copy of its result (AleResetCopy in
// kernels/ale_console.hpp), for the games whose reset leaves the same
// console whatever that console did before.
//
// ALE's reset keeps RIOT RAM, part of the TIA (the buffer it draws into,
// whether the last frame ended partial) and the CPU, and draws the RIOT
// timer and cartridge RAM from the system RNG, which every console seeds
// alike. Many games clear all of that before it can show, so their reset
// ends in one state per TIA key; others start their game by the timer (one
// state per TIA key and timer), and some read RAM they kept through the
// reset. Which is which is found by trying: the reset is run from consoles
// of different pasts (just built, random play of different lengths, odd and
// even, from different seeds, early in an episode, a game just over, a RAM
// of random bytes, the system RNG where later resets draw), watching which
// RAM bytes it reads before writing them and which it never writes
// (RamWatch); a past whose reset reads such bytes is tried again with them
// at random values. A key's console is the first result for that key, kept
// when a second past of the key gives it too; the whole copy is dropped
// when any past's result differs from its key's console in any byte of the
// console or of the screens (the bytes the reset never wrote keep the
// past's values in both). By TIA key alone first; where that fails and the
// game has no cartridge RAM, by TIA key and timer, each timer tried from
// two pasts of each TIA key; then the same two with consoles that hold only
// for the values of the bits that steer the reset in the RAM bytes it read
// first (a past whose RAM has other values there makes a console of its
// own), from more pasts of play, each timer from every past. The bits that
// steer are found first, by flipping groups of bits in those pasts and
// halving the groups that change the reset; stack bytes, scores the reset
// compares and overwrites, and bits it masks off steer nothing, though they
// vary in play. The trial then tries each past again with the other bits
// at random values. Such a copy is not tried, or is dropped, where none of
// 8 other pasts of play would take one of its consoles. A reset from a RAM
// with those values runs as the trial's did, so what such a key leaves out
// is the rest of the past's state, which the trial varies. That is a
// sample of pasts, not a proof over all of them:
// EnvConfig::run_full_resets turns copies off, and the tests compare the
// two on every game.
//
// From a copied reset an episode's first acts (FIRE held for a few frames,
// then no-ops) depend on nothing else, so the copy also holds each
// console's consoles after them, run once here, each different console and
// pair of screens once.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cule/console.hpp"
#include "kernels/ale_console.hpp"

namespace cule {

//! The host's copy of one game's reset (see the file's comment).
struct ResetCopy {
  std::vector<AleConsole> after;      //!< the consoles after the reset
  std::vector<uint8_t> screens;       //!< their screens (each different pair once)
  std::vector<int16_t> console_of;    //!< per key: its first console (-1: none)
  std::vector<int16_t> next_of;       //!< per console: the next of its key (-1: none)
  std::vector<int16_t> screens_of;    //!< per console: its screens
  std::vector<uint32_t> reads_of{0};  //!< per console + 1: its entries in read_at, ...
  std::vector<uint8_t> read_at;       //!< RAM bytes the reset read before writing them
  std::vector<uint8_t> read_mask;     //!< ... the bits of them that steer it
  std::vector<uint8_t> read_value;    //!< ... and their values
  std::vector<uint32_t> kept_of{0};   //!< per console + 1: its entries in kept_at
  std::vector<uint8_t> kept_at;       //!< RAM bytes the reset never wrote
  bool by_timer = false;
  bool by_ram = false;  //!< consoles hold for the values of the RAM their reset read
  uint32_t system_draws = 0;
  uint32_t env_draws = 0;
  uint32_t frames_counted = 0;
  // The consoles after the reset and its first acts (AleResetCopy).
  std::vector<uint8_t> acts_after;    //!< each different console once (AleCopiedBytes)
  uint32_t acts_state_bytes = 0;      //!< ... each's bytes (ale_copied_state_bytes)
  std::vector<uint8_t> acts_screens;  //!< each different pair of screens once
  std::vector<int32_t>
      acts_console_of;  //!< per (FIRE acts, console, acts): in acts_after (-1: none)
  std::vector<int32_t> acts_screens_of;  //!< ... and in acts_screens
  uint32_t fire_acts = 0;                //!< FIRE acts < this are held
  uint32_t acts = 0;                     //!< acts < this are held (0: none)

  //! The copy as the emulator takes it, each part's pointer from
  //! `place(part)`: its data here (view()), or a backend's copy of it.
  template <class Place>
  AleResetCopy view_placed(Place&& place) const {
    AleResetCopy view{};
    view.after = place(after);
    view.screens = place(screens);
    view.console_of = place(console_of);
    view.next_of = place(next_of);
    view.screens_of = place(screens_of);
    view.reads_of = place(reads_of);
    view.read_at = place(read_at);
    view.read_mask = place(read_mask);
    view.read_value = place(read_value);
    view.kept_of = place(kept_of);
    view.kept_at = place(kept_at);
    view.consoles = uint32_t(after.size());
    view.by_timer = uint32_t(by_timer);
    view.system_draws = system_draws;
    view.env_draws = env_draws;
    view.frames_counted = frames_counted;
    if (acts > 0) {
      view.acts_after = place(acts_after);
      view.acts_state_bytes = acts_state_bytes;
      view.acts_screens = place(acts_screens);
      view.acts_console_of = place(acts_console_of);
      view.acts_screens_of = place(acts_screens_of);
      view.fire_acts = fire_acts;
      view.acts = acts;
    }
    return view;
  }
  //! The copy as the emulator takes it (pointers into this object).
  AleResetCopy view() const {
    return view_placed([](const auto& part) { return part.data(); });
  }
};

//! AtariVectorEnv's default noop_max, 30, starts an episode with 29 acts at
//! most (FIRE and no-ops): a copy holds the consoles after up to that many.
constexpr uint32_t kCopiedStartActs = 30;
//! With sticky actions (0.25) FIRE is held for 8 acts or more at 0.005% of
//! episode starts: a copy holds up to 7 (fewer where they would take over
//! 64 MiB). A batch's step waits for its slowest reset: with Breakout's
//! some 380 episode ends a step at 64K environments, one step in 60 runs a
//! reset's acts (with up to 3 held, nearly every step would).
constexpr uint32_t kCopiedStartFireActs = 8;

//! The copy of the reset of `prototype`'s game for consoles built as
//! env_rebuild builds them with `mode` and `difficulty` (-1: the game's
//! default), or null when a console tried resets to something else (or no
//! key's copy was seen twice). The answer is kept for the process's life
//! (the trial plays up to some 12,000 frames and runs from 20 to some 2,500
//! resets, on a thread per hardware thread), so batches of one game share it.
std::shared_ptr<const ResetCopy> find_reset_copy(const Console& prototype, int mode,
                                                 int difficulty);

}  // namespace cule
