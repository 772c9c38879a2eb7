// The game modes, difficulties and starting actions of ALE's game settings
// (ALE v0.12.1, src/ale/games/supported/*), and each game's mode selection as
// ALE performs it during a reset.
//
// ALE's reset (StellaEnvironment::reset) runs: system reset; 60 no-op frames;
// soft reset; the game's setMode for the current mode; soft reset; then each
// starting action for one frame. set_game_mode() is the setMode step; the
// console supplies the primitives through ResetContext. The setMode logic
// itself is kernels/game_modes.hpp, shared with device code.
//
// Difficulty: ALE only stores it (ALEState::setDifficulty) and drives the
// difficulty switches from it on every frame it emulates afterwards (bit 0: left
// switch A, bit 1: right switch A), the reset's frames included. Nothing in
// setMode depends on it. A fresh loadROM starts at difficulty 0 even where 0
// is not in the game's list (backgammon lists only 3).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/game_modes.hpp"

namespace cule {

//! What a game's mode selection may do to the console (implemented by
//! cule::Console). Each call mirrors one of ALE's StellaEnvironment primitives.
class ResetContext {
 public:
  virtual ~ResetContext() = default;

  //! A RIOT RAM byte. `address` is always a CPU address 0x80-0xFF: ALE's
  //! readRam(offset) reads 0x80 + (offset & 0x7F), and set_game_mode passes
  //! that address (so a console returns ram[address & 0x7F]).
  virtual uint8_t read_ram(uint16_t address) = 0;

  //! ALE's readMappedRam: System::peek of a full 16-bit CPU address (13 bus
  //! lines decoded). Only Klax uses it, at 0xF0EA: the read port of its F6SC
  //! cartridge RAM (byte 0x6A), which triggers no bank switch.
  virtual uint8_t read_mapped(uint16_t address) = 0;

  //! ALE's pressSelect(frames): `frames` frames with the SELECT switch held
  //! and every joystick and paddle button released (paddle positions and the
  //! difficulty switches stay), emulated WITHOUT the game's step() (no reward,
  //! terminal or lives bookkeeping); then one frame as a NOOP action (a paddle
  //! game's paddles do not move), with step(). ALE's frame counters advance by
  //! one for the whole call, not by frames + 1.
  virtual void press_select(int frames) = 0;

  //! ALE's softReset: 4 frames with the RESET switch pressed (with step());
  //! afterwards the remembered previous actions of both players are NOOP, so
  //! the next sticky action repeats a NOOP.
  virtual void soft_reset() = 0;

  //! ALE's environment act(action, PLAYER_B_NOOP) with paddle strengths 1.0:
  //! frame_skip frames, each drawing the environment RNG twice (player A, then
  //! B) for sticky actions against repeat_action_probability and keeping the
  //! previous action on a draw below it; a frame is skipped when the game is
  //! terminal; an action the game deems illegal becomes NOOP; each frame
  //! calls step() and advances the frame counters. The action it settles on
  //! stays the "previous action" for later acts (a game that acts after its
  //! last soft reset leaves it behind for the episode's first step).
  virtual void act(int action) = 0;

  //! The next raw 32-bit output of ALE's environment RNG (Random::next, an
  //! mt19937; the generator sticky actions draw from). Only Adventure uses it.
  virtual uint32_t env_rng_next() = 0;
};

//! The mode facts of one game, from ALE's settings class for it. The
//! starting actions and overrides_set_mode are those of kernels/game_modes.hpp
//! (game_starting_action, game_overrides_set_mode).
struct GameModes {
  const char* rom_id;                 //!< ale-py id (RomSettings::rom())
  std::vector<int> modes;             //!< getAvailableModes, in ALE's order
  int default_mode;                   //!< getDefaultMode: the first mode for every game
  std::vector<int> difficulties;      //!< getAvailableDifficulties
  std::vector<int> starting_actions;  //!< getStartingActions: 0-17 or kAleResetAction
  //! The settings class overrides setMode. Then setMode ends in (at least) one
  //! soft reset even when the mode is already selected, so ALE's reset holds
  //! RESET for 4 more frames than for a game without the override.
  bool overrides_set_mode;
};

//! The mode facts of a game by ale-py id; nullptr when the id is unknown, or
//! a ROM ale-py ships without ALE settings (combat, joust, maze_craze,
//! warlords). For those use: modes {0}, default 0, difficulties {0}, no
//! starting actions, no setMode.
const GameModes* find_game_modes(const std::string& rom_id);

//! Every game with ALE settings, in ALE's order (src/ale/games/Roms.cpp).
const std::vector<GameModes>& all_game_modes();

//! ALE's setMode of `rom_id` for `mode`: checks the mode, then performs the
//! game's sequence on `ctx` with game_set_mode (kernels/game_modes.hpp); for a
//! game without an override, or an unknown id, nothing. Throws cule::Error for
//! a mode the game does not have, naming the game, the mode and the available
//! modes; and, naming the game, the mode and the reason, where ALE's own loop
//! gives up (E.T. after kEtModeMaxPresses presses) or a selection loop runs on
//! without end (ALE would hang) past kModeMaxRounds rounds.
void set_game_mode(const std::string& rom_id, int mode, ResetContext& ctx);

}  // namespace cule
