// ALE's reset of a game as a copy of its result (AleResetCopy in
// kernels/ale_console.hpp), for the games whose reset leaves the same
// console whatever that console did before.
//
// ALE's reset keeps RIOT RAM, part of the TIA (the buffer it draws into,
// whether the last frame ended partial) and the CPU, and draws the RIOT
// timer and cartridge RAM from the system RNG, which every console seeds
// alike. Most games clear all of that before it can show, so their reset
// ends in one state per TIA key (ale_reset_copy_key); some keep RAM through
// it or time their start by the timer. Which is which is found by trying:
// the reset is run from consoles of different pasts (just built, random
// play of different lengths, odd and even, from different seeds, a game just
// over, a RAM of random bytes, the system RNG at a later reset's place). A
// key's copy is the first result for that key, kept when a second past of
// the key gives it too; the whole copy is dropped when any past's result
// differs from its key's copy in any byte of the console or of the screens.
// That is a sample of pasts, not a proof over all of them:
// EnvConfig::run_full_resets turns copies off, and the tests compare the two
// on every game.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cule/console.hpp"
#include "kernels/ale_console.hpp"

namespace cule {

//! The host's copy of one game's reset (see the file's comment).
struct ResetCopy {
  AleConsole after[AleResetCopy::kKeys];  //!< the console after the reset, by key
  std::vector<uint8_t> pixels;            //!< their screens
  uint32_t keys = 0;                      //!< bit k: after[k] is a copy
  uint32_t system_draws = 0;
  uint32_t env_draws = 0;
  uint32_t frames_counted = 0;

  //! The copy as the emulator takes it (pointers into this object).
  AleResetCopy view() const {
    return AleResetCopy{after, pixels.data(), keys, system_draws, env_draws, frames_counted};
  }
};

//! The copy of the reset of `prototype`'s game for consoles built as
//! env_rebuild builds them with `mode` and `difficulty` (-1: the game's
//! default), or null when a console tried resets to something else (or no
//! key's copy was seen twice). The
//! answer is kept for the process's life (the trial plays some 9,000
//! frames), so batches of one game share it.
std::shared_ptr<const ResetCopy> find_reset_copy(const Console& prototype, int mode,
                                                 int difficulty);

}  // namespace cule
