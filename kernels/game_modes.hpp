// ALE's per-game mode selection (RomSettings::setMode, ALE v0.12.1) and the
// facts of a game's reset that the console needs: starting actions, default
// mode, whether setMode is overridden.
//
// Usage:
//   ModeStatus s = game_set_mode(game, mode, ctx);  // ctx: the console's primitives
//   for (int k = 0; k < game_starting_action_count(game); ++k)
//     run_one_frame(game_starting_action(game, k));  // 0-17 or kAleResetAction
//
// `Ctx` provides, as CULE_HD members (cule/game_modes.hpp documents each as
// the ResetContext interface):
//   uint8_t read_ram(uint16_t address);    // RIOT RAM, address 0x80-0xFF
//   uint8_t read_mapped(uint16_t address); // a CPU address, without side effects
//   void press_select(int frames);         // ALE's pressSelect
//   void soft_reset();                     // ALE's softReset
//   void act(int action);                  // ALE's environment act for player A
//   uint32_t env_rng_next();               // ALE's environment RNG
// Reads have no side effects; presses, resets and acts change the console, so
// the order of every call below is ALE's.
#pragma once

#include <cstdint>

#include "kernels/ale_controls.hpp"
#include "kernels/game_rules.hpp"
#include "kernels/hd.hpp"

namespace cule {

//! ALE's RESET action: one frame with the console's RESET switch pressed and
//! the controllers released (the frames of a soft reset are such frames). It
//! appears among starting actions.
constexpr int kAleResetAction = 40;

//! ALE's selection loops have no bound: where the byte never matches, ALE
//! hangs. game_set_mode stops after this many rounds instead; the longest
//! that occurs (name_this_game) takes 134.
constexpr int kModeMaxRounds = 10000;

//! E.T.'s setMode presses SELECT at most this many times (ALE's own bound).
constexpr int kEtModeMaxPresses = 100;

//! How a game's mode selection ended.
enum class ModeStatus : uint8_t {
  ok,           //!< the mode is selected (or the game has no setMode)
  not_reached,  //!< a selection loop ran past kModeMaxRounds rounds (ALE would hang)
  gave_up,      //!< E.T. did not reach the mode in kEtModeMaxPresses presses
};

namespace game_modes_detail {

// ALE's player A actions used by the settings.
constexpr int kNoop = int(Action::NOOP);
constexpr int kFire = int(Action::FIRE);
constexpr int kUp = int(Action::UP);
constexpr int kRight = int(Action::RIGHT);
constexpr int kLeft = int(Action::LEFT);
constexpr int kDown = int(Action::DOWN);
constexpr int kUpFire = int(Action::UPFIRE);

// ALE's readRam(offset): RIOT RAM at 0x80 + (offset & 0x7F).
template <class Ctx>
CULE_HD uint8_t ram(Ctx& ctx, int offset) {
  return ctx.read_ram(static_cast<uint16_t>(0x80 + (offset & 0x7F)));
}

// ALE's getDecimalScore of one byte: two BCD digits.
CULE_HD inline int decimal(uint8_t byte) { return 10 * (byte >> 4) + (byte & 0x0F); }

// Counts the rounds of one setMode's loops, all loops together.
struct Rounds {
  int count = 0;
  // False once the rounds exceed kModeMaxRounds (the round is not run).
  CULE_HD bool next() { return ++count <= kModeMaxRounds; }
};

// The conditions a selection loop waits for; each reads what ALE's reads.

// The byte at `offset` equals `want`.
struct ByteIs {
  int offset;
  int want;
  template <class Ctx>
  CULE_HD bool operator()(Ctx& ctx) const {
    return ram(ctx, offset) == want;
  }
};

// The byte at `offset` holds the mode plus one: ALE reads it into an unsigned
// char minus one (0 reads as 255).
struct BytePlusOneIs {
  int offset;
  int want;
  template <class Ctx>
  CULE_HD bool operator()(Ctx& ctx) const {
    return static_cast<uint8_t>(ram(ctx, offset) - 1) == want;
  }
};

// The byte at `offset` equals `want`, or `want + title` (a title screen's
// flag added to the mode).
struct ByteIsOnTitle {
  int offset;
  int want;
  int title;
  template <class Ctx>
  CULE_HD bool operator()(Ctx& ctx) const {
    const uint8_t mode = ram(ctx, offset);
    return mode == want || mode == want + title;
  }
};

// Klax: the mode lives in the cartridge's RAM, read through its read port.
struct KlaxModeIs {
  int want;
  template <class Ctx>
  CULE_HD bool operator()(Ctx& ctx) const {
    return ctx.read_mapped(0xF0EA) == want;
  }
};

// Space War: 0xA7 holds the mode in BCD.
struct SpaceWarModeIs {
  int want;
  template <class Ctx>
  CULE_HD bool operator()(Ctx& ctx) const {
    return decimal(ram(ctx, 0xA7)) == want;
  }
};

// Video Cube: 0xFB's low five bits hold the game minus one.
struct VideoCubeGameIs {
  int want;
  template <class Ctx>
  CULE_HD bool operator()(Ctx& ctx) const {
    return (ram(ctx, 0xFB) & 0x1F) == want;
  }
};

// Human Cannonball: 0xB6 holds the mode plus one, 0xB7 the players (1 wanted).
struct HumanCannonballModeIs {
  int want;
  template <class Ctx>
  CULE_HD bool operator()(Ctx& ctx) const {
    const uint8_t mode = static_cast<uint8_t>(ram(ctx, 0xB6) - 1);
    const uint8_t players = ram(ctx, 0xB7);
    return mode == want && players == 1;
  }
};

// Ms. Pac-Man: 0x99 holds the mode, 0xA1 the variation.
struct MsPacmanModeIs {
  int want_mode;
  int want_variation;
  template <class Ctx>
  CULE_HD bool operator()(Ctx& ctx) const {
    const uint8_t mode = ram(ctx, 0x99);
    const uint8_t variation = ram(ctx, 0xA1);
    return mode == want_mode && variation == want_variation;
  }
};

// Pac-Man: 0xCC holds the mode plus one; 0xE6 = 0 is one player.
struct PacmanModeIs {
  int want;
  template <class Ctx>
  CULE_HD bool operator()(Ctx& ctx) const {
    const uint8_t mode = static_cast<uint8_t>(ram(ctx, 0xCC) - 1);
    const bool one_player = ram(ctx, 0xE6) == 0;
    return mode == want && one_player;
  }
};

// Presses SELECT for `frames` frames at a time until `reached` holds; the
// condition is evaluated first (no press when the mode is already selected).
// False when the rounds run out.
template <class Ctx, class Reached>
CULE_HD bool select_until(Ctx& ctx, int frames, Rounds& rounds, const Reached& reached) {
  while (!reached(ctx)) {
    if (!rounds.next()) return false;
    ctx.press_select(frames);
  }
  return true;
}

// The common setMode: SELECT until `reached`, then a soft reset.
template <class Ctx, class Reached>
CULE_HD ModeStatus select_then_reset(Ctx& ctx, int frames, Rounds& rounds, const Reached& reached) {
  if (!select_until(ctx, frames, rounds, reached)) return ModeStatus::not_reached;
  ctx.soft_reset();
  return ModeStatus::ok;
}

// Adventure: the mode is bits 1-2 of 0xDD. Each round holds SELECT for a
// random time (the game seeds its level 3 layout from a frame counter), then
// one NOOP act lets the game's debouncer see the release.
template <class Ctx>
CULE_HD ModeStatus adventure(Ctx& ctx, int m, Rounds& rounds) {
  while (((ram(ctx, 0xDD) >> 1) & 0x03) != m) {
    if (!rounds.next()) return ModeStatus::not_reached;
    const uint32_t draw = ctx.env_rng_next();
    ctx.press_select(static_cast<int>(2 + draw % 256));
    ctx.act(kNoop);
  }
  ctx.soft_reset();
  return ModeStatus::ok;
}

// Double Dunk: one menu step is an act of the direction followed by a NOOP act.
template <class Ctx>
CULE_HD bool double_dunk_step(Ctx& ctx, Rounds& rounds, int action) {
  if (!rounds.next()) return false;
  ctx.act(action);
  ctx.act(kNoop);
  return true;
}

// Double Dunk: down to the next menu entry, until the cursor byte 0xB0 changes.
template <class Ctx>
CULE_HD bool double_dunk_down(Ctx& ctx, Rounds& rounds) {
  const uint8_t previous = ram(ctx, 0xB0);
  while (previous == ram(ctx, 0xB0)) {
    if (!double_dunk_step(ctx, rounds, kDown)) return false;
  }
  return true;
}

// Double Dunk: the option's bit in 0x80 set (right) or cleared (left).
template <class Ctx>
CULE_HD bool double_dunk_option(Ctx& ctx, Rounds& rounds, bool on, uint8_t bit) {
  if (on) {
    while ((ram(ctx, 0x80) & bit) != bit) {
      if (!double_dunk_step(ctx, rounds, kRight)) return false;
    }
  } else {
    while ((ram(ctx, 0x80) & bit) == bit) {
      if (!double_dunk_step(ctx, rounds, kLeft)) return false;
    }
  }
  return true;
}

// Double Dunk: a menu of yes/no options walked with the joystick: down twice
// to the first option, then each option and down to the next.
template <class Ctx>
CULE_HD ModeStatus double_dunk(Ctx& ctx, int m, Rounds& rounds) {
  ctx.press_select(1);
  const bool walked = double_dunk_down(ctx, rounds) && double_dunk_down(ctx, rounds) &&
                      double_dunk_option(ctx, rounds, m & 1, 0x08) &&  // three-point shots
                      double_dunk_down(ctx, rounds) &&
                      double_dunk_option(ctx, rounds, m & 2, 0x10) &&  // ten-second violation
                      double_dunk_down(ctx, rounds) &&
                      double_dunk_option(ctx, rounds, m & 4, 0x04) &&  // three-second violation
                      double_dunk_down(ctx, rounds) &&
                      double_dunk_option(ctx, rounds, m & 8, 0x20);  // fouls
  if (!walked) return ModeStatus::not_reached;
  ctx.soft_reset();
  ctx.act(kUpFire);
  ctx.act(kNoop);
  return ModeStatus::ok;
}

// E.T.: 0xEA holds the mode plus one; ALE gives up after 100 presses.
template <class Ctx>
CULE_HD ModeStatus et(Ctx& ctx, int m, Rounds& rounds) {
  const BytePlusOneIs reached{0xEA, m};
  int presses = 0;
  while (!reached(ctx) && presses < kEtModeMaxPresses) {
    if (!rounds.next()) return ModeStatus::not_reached;
    ctx.press_select(25);
    ++presses;
  }
  if (!reached(ctx)) return ModeStatus::gave_up;
  ctx.soft_reset();
  return ModeStatus::ok;
}

// Video Cube: mode = cube * 100 + variant. The variant picks game 1, 3 or 9;
// after the soft reset the joystick moves right until the BCD cube number at
// 0x9F matches. A mode below 100 keeps the settings' cube, which ALE's reset
// sets to 1.
template <class Ctx>
CULE_HD ModeStatus video_cube(Ctx& ctx, int m, Rounds& rounds) {
  const int cube = m >= 100 ? m / 100 : 1;
  const int variant = m % 100;
  const int game = variant == 0 ? 1 : variant == 1 ? 3 : 9;
  if (!select_until(ctx, 2, rounds, VideoCubeGameIs{game - 1})) return ModeStatus::not_reached;
  ctx.soft_reset();
  // ALE keeps the BCD value in an unsigned char.
  while (static_cast<uint8_t>(decimal(ram(ctx, 0x9F))) != cube) {
    if (!rounds.next()) return ModeStatus::not_reached;
    ctx.act(kRight);
  }
  return ModeStatus::ok;
}

// A game's starting actions as up to three runs of one action each.
struct StartingRuns {
  int length[3];
  int action[3];
};

CULE_HD inline StartingRuns runs(int n0, int a0, int n1 = 0, int a1 = 0, int n2 = 0, int a2 = 0) {
  return StartingRuns{{n0, n1, n2}, {a0, a1, a2}};
}

CULE_HD inline StartingRuns starting_runs(Game game) {
  switch (game) {
    case Game::air_raid:
    case Game::asterix:
    case Game::enduro:
    case Game::gopher:
    case Game::journey_escape:
    case Game::kaboom:
    case Game::lost_luggage:
    case Game::mr_do:
    case Game::turmoil:
    case Game::up_n_down:
    case Game::yars_revenge: return runs(1, kFire);
    case Game::beam_rider: return runs(1, kRight);
    case Game::casino: return runs(60, kNoop, 2, kFire);
    case Game::darkchambers: return runs(486, kNoop);
    case Game::double_dunk: return runs(1, kUpFire);
    case Game::elevator_action:
    case Game::gravitar: return runs(16, kFire);
    case Game::entombed: return runs(1, kFire, 5, kNoop);
    case Game::keystone_kapers:
    case Game::laser_gates: return runs(1, kAleResetAction);
    case Game::klax: return runs(1, kFire, 1, kNoop);
    case Game::mario_bros: return runs(10, kNoop, 7, kFire);
    case Game::pitfall:
    case Game::pitfall2:
    case Game::private_eye: return runs(1, kUp);
    case Game::sir_lancelot: return runs(1, kAleResetAction, 1, kLeft);
    case Game::skiing: return runs(16, kDown);
    case Game::video_cube: return runs(61, kNoop, 1, kFire, 2, kNoop);
    case Game::word_zapper: return runs(486, kNoop, 1, kFire, 2, kNoop);
    default: return runs(0, kNoop);
  }
}

}  // namespace game_modes_detail

//! The number of starting actions ALE's reset runs for `game`, one frame each
//! (getStartingActions); 0 for Game::count.
CULE_HD inline int game_starting_action_count(Game game) {
  const game_modes_detail::StartingRuns r = game_modes_detail::starting_runs(game);
  return r.length[0] + r.length[1] + r.length[2];
}

//! Starting action `k` of `game`: 0-17 or kAleResetAction; -1 when `k` is not
//! below game_starting_action_count(game).
CULE_HD inline int game_starting_action(Game game, int k) {
  const game_modes_detail::StartingRuns r = game_modes_detail::starting_runs(game);
  if (k < 0) return -1;
  for (int i = 0; i < 3; ++i) {
    if (k < r.length[i]) return r.action[i];
    k -= r.length[i];
  }
  return -1;
}

//! ALE's getDefaultMode: the first of the game's modes; 0 for Game::count.
CULE_HD inline int game_default_mode(Game game) {
  switch (game) {
    case Game::air_raid:
    case Game::battle_zone:
    case Game::berzerk:
    case Game::defender:
    case Game::demon_attack:
    case Game::galaxian:
    case Game::video_checkers: return 1;
    case Game::basic_math: return 5;
    case Game::centipede: return 0x16;
    case Game::flag_capture: return 8;
    case Game::name_this_game: return 0x08;
    case Game::pooyan: return 0x0A;
    case Game::space_war: return 6;
    default: return 0;
  }
}

//! ALE's setMode of `game` for `mode`, a mode the game has (the caller
//! checks): performs exactly the game's sequence of calls on `ctx`. A game
//! without an override (and Game::count) does nothing and returns ok.
template <class Ctx>
CULE_HD CULE_DEVICE_NOINLINE ModeStatus game_set_mode(Game game, int mode, Ctx& ctx) {
  using namespace game_modes_detail;
  const int m = mode;
  Rounds rounds;
  switch (game) {
    case Game::adventure: return adventure(ctx, m, rounds);
    case Game::air_raid:
      // One long press opens the selection screen.
      ctx.press_select(20);
      return select_then_reset(ctx, 10, rounds, ByteIs{0xAA, m});
    case Game::alien: return select_then_reset(ctx, 1, rounds, ByteIs{0x81, m});
    case Game::asteroids: return select_then_reset(ctx, 2, rounds, ByteIs{0x80, m});
    case Game::atlantis: return select_then_reset(ctx, 2, rounds, ByteIs{0x8D, m});
    // Backgammon: one mode, selected when 0xDC holds 3.
    case Game::backgammon: return select_then_reset(ctx, 1, rounds, ByteIs{0xDC, 3});
    case Game::bank_heist: return select_then_reset(ctx, 1, rounds, ByteIs{0x80, m});
    case Game::basic_math: return select_then_reset(ctx, 2, rounds, ByteIs{0xC5, m});
    case Game::battle_zone: return select_then_reset(ctx, 2, rounds, ByteIs{0xA1, m});
    case Game::berzerk:
      // The game ignores SELECT until 20 NOOP acts have run.
      for (int i = 0; i < 20; ++i) ctx.act(kNoop);
      return select_then_reset(ctx, 2, rounds, ByteIs{0x80, m});
    // ALE reads "RAM 2", i.e. 0x82.
    case Game::bowling: return select_then_reset(ctx, 2, rounds, ByteIs{0x82, m});
    case Game::breakout: return select_then_reset(ctx, 1, rounds, ByteIs{0xB2, m});
    case Game::casino: return select_then_reset(ctx, 2, rounds, ByteIs{0xD4, m});
    case Game::centipede: return select_then_reset(ctx, 2, rounds, ByteIs{0xA7, m});
    case Game::chopper_command: return select_then_reset(ctx, 2, rounds, ByteIs{0xE0, m});
    case Game::crazy_climber: return select_then_reset(ctx, 2, rounds, ByteIs{0x80, m});
    case Game::crossbow: return select_then_reset(ctx, 2, rounds, BytePlusOneIs{0x8D, m});
    case Game::defender: return select_then_reset(ctx, 2, rounds, ByteIs{0x9B, m});
    case Game::demon_attack: return select_then_reset(ctx, 1, rounds, ByteIs{0xEA, m});
    case Game::double_dunk: return double_dunk(ctx, m, rounds);
    case Game::et: return et(ctx, m, rounds);
    case Game::flag_capture: return select_then_reset(ctx, 2, rounds, ByteIs{0xD6, m});
    case Game::freeway: return select_then_reset(ctx, 1, rounds, ByteIs{0x80, m});
    // Frogger's single-player modes are stored as 1, 3, 5.
    case Game::frogger: return select_then_reset(ctx, 2, rounds, ByteIs{0xDD, 1 + 2 * m});
    case Game::frostbite: return select_then_reset(ctx, 1, rounds, ByteIs{0x80, m});
    case Game::galaxian: return select_then_reset(ctx, 1, rounds, ByteIs{0xB3, m});
    case Game::gopher:
      // A soft reset first, then the usual with 5-frame presses.
      ctx.soft_reset();
      return select_then_reset(ctx, 5, rounds, ByteIs{0xD3, m});
    case Game::gravitar: return select_then_reset(ctx, 10, rounds, ByteIs{0x80, m});
    case Game::hangman: return select_then_reset(ctx, 2, rounds, ByteIs{0xEE, m});
    case Game::haunted_house: return select_then_reset(ctx, 2, rounds, ByteIs{0xCC, m});
    case Game::hero: return select_then_reset(ctx, 1, rounds, ByteIs{0x80, m});
    case Game::human_cannonball: return select_then_reset(ctx, 2, rounds, HumanCannonballModeIs{m});
    case Game::ice_hockey: return select_then_reset(ctx, 2, rounds, ByteIs{0x80, m});
    // On the title screen 0x8C holds the mode plus 0x48.
    case Game::jamesbond: return select_then_reset(ctx, 20, rounds, ByteIsOnTitle{0x8C, m, 0x48});
    // On the title screen 0xBA holds the mode plus 0x80.
    case Game::kangaroo: return select_then_reset(ctx, 2, rounds, ByteIsOnTitle{0xBA, m, 0x80});
    // King Kong's modes are stored as 0, 2, 4, 6.
    case Game::king_kong: return select_then_reset(ctx, 2, rounds, ByteIs{0xEC, 2 * m});
    case Game::klax: return select_then_reset(ctx, 2, rounds, KlaxModeIs{m});
    // Lost Luggage's single-player modes are stored as 1, 4.
    case Game::lost_luggage: return select_then_reset(ctx, 2, rounds, ByteIs{0x94, 1 + 3 * m});
    case Game::mario_bros: return select_then_reset(ctx, 5, rounds, ByteIs{0x80, m});
    case Game::mr_do: return select_then_reset(ctx, 5, rounds, ByteIs{0x80, m});
    // Mode 0 is 0x99 = 1 with variation 1; mode m > 0 is 0x99 = m with variation 0.
    case Game::ms_pacman:
      return select_then_reset(ctx, 10, rounds, MsPacmanModeIs{m == 0 ? 1 : m, m == 0 ? 1 : 0});
    case Game::name_this_game: return select_then_reset(ctx, 2, rounds, ByteIs{0xDE, m});
    case Game::othello: return select_then_reset(ctx, 2, rounds, BytePlusOneIs{0xDE, m});
    case Game::pacman: return select_then_reset(ctx, 2, rounds, PacmanModeIs{m});
    case Game::pong: return select_then_reset(ctx, 2, rounds, ByteIs{0x96, m});
    case Game::pooyan:
      // One press opens the selection.
      ctx.press_select(2);
      return select_then_reset(ctx, 2, rounds, ByteIs{0xBD, m});
    case Game::private_eye: return select_then_reset(ctx, 2, rounds, ByteIs{0x80, m});
    case Game::space_invaders: return select_then_reset(ctx, 2, rounds, ByteIs{0xDC, m});
    case Game::space_war: return select_then_reset(ctx, 2, rounds, SpaceWarModeIs{m});
    case Game::star_gunner: return select_then_reset(ctx, 15, rounds, ByteIs{0xF4, m});
    // Surround's single-player modes are stored as 1, 3.
    case Game::surround: return select_then_reset(ctx, 2, rounds, ByteIs{0xF9, m + 1});
    case Game::tennis: return select_then_reset(ctx, 2, rounds, ByteIs{0x80, m});
    case Game::tic_tac_toe_3d: return select_then_reset(ctx, 2, rounds, ByteIs{0x88, m});
    case Game::turmoil: return select_then_reset(ctx, 2, rounds, ByteIs{0xEA, m});
    case Game::tutankham: return select_then_reset(ctx, 2, rounds, ByteIs{0xAB, m});
    // Games 11-19 (reverse checkers) are stored as 17-25.
    case Game::video_checkers:
      return select_then_reset(ctx, 1, rounds, ByteIs{0xF6, m >= 11 ? m + 6 : m});
    case Game::video_chess: return select_then_reset(ctx, 1, rounds, ByteIs{0xEA, m});
    case Game::video_cube: return video_cube(ctx, m, rounds);
    case Game::video_pinball: return select_then_reset(ctx, 2, rounds, ByteIs{0xC1, m});
    case Game::word_zapper: return select_then_reset(ctx, 2, rounds, ByteIs{0xDB, m});
    case Game::yars_revenge:
      // One press opens the selection.
      ctx.press_select(2);
      return select_then_reset(ctx, 1, rounds, ByteIs{0xE3, m});
    case Game::zaxxon: return select_then_reset(ctx, 10, rounds, ByteIs{0x82, m});
    default: return ModeStatus::ok;
  }
}

//! The game's settings class overrides setMode (game_set_mode does something).
//! Then setMode ends in (at least) one soft reset even when the mode is
//! already selected, so ALE's reset holds RESET for 4 more frames than for a
//! game without the override.
CULE_HD inline bool game_overrides_set_mode(Game game) {
  switch (game) {
    case Game::adventure:
    case Game::air_raid:
    case Game::alien:
    case Game::asteroids:
    case Game::atlantis:
    case Game::backgammon:
    case Game::bank_heist:
    case Game::basic_math:
    case Game::battle_zone:
    case Game::berzerk:
    case Game::bowling:
    case Game::breakout:
    case Game::casino:
    case Game::centipede:
    case Game::chopper_command:
    case Game::crazy_climber:
    case Game::crossbow:
    case Game::defender:
    case Game::demon_attack:
    case Game::double_dunk:
    case Game::et:
    case Game::flag_capture:
    case Game::freeway:
    case Game::frogger:
    case Game::frostbite:
    case Game::galaxian:
    case Game::gopher:
    case Game::gravitar:
    case Game::hangman:
    case Game::haunted_house:
    case Game::hero:
    case Game::human_cannonball:
    case Game::ice_hockey:
    case Game::jamesbond:
    case Game::kangaroo:
    case Game::king_kong:
    case Game::klax:
    case Game::lost_luggage:
    case Game::mario_bros:
    case Game::mr_do:
    case Game::ms_pacman:
    case Game::name_this_game:
    case Game::othello:
    case Game::pacman:
    case Game::pong:
    case Game::pooyan:
    case Game::private_eye:
    case Game::space_invaders:
    case Game::space_war:
    case Game::star_gunner:
    case Game::surround:
    case Game::tennis:
    case Game::tic_tac_toe_3d:
    case Game::turmoil:
    case Game::tutankham:
    case Game::video_checkers:
    case Game::video_chess:
    case Game::video_cube:
    case Game::video_pinball:
    case Game::word_zapper:
    case Game::yars_revenge:
    case Game::zaxxon: return true;
    default: return false;
  }
}

}  // namespace cule
