#include "cule/game_modes.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>

#include "cule/error.hpp"

namespace cule {
namespace {

// ALE's player A actions used by the settings.
constexpr int kNoop = 0;
constexpr int kFire = 1;
constexpr int kUp = 2;
constexpr int kRight = 3;
constexpr int kLeft = 4;
constexpr int kDown = 5;
constexpr int kUpFire = 10;

// ALE's selection loops have no bound: where the byte never matches, ALE
// hangs. We give up (with an error) after this many rounds instead; the
// longest that occurs (name_this_game) takes 134.
constexpr int kMaxRounds = 10000;

std::string join(const std::vector<int>& values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(values[i]);
  }
  return text;
}

// Counts the rounds of one game's selection loops.
class Rounds {
 public:
  Rounds(const std::string& game, int mode) : game_(game), mode_(mode) {}
  void next() {
    if (++count_ > kMaxRounds) fail("the game never reached it");
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw Error("game mode: selecting " + std::to_string(mode_) + " of '" + game_ +
                "' failed: " + why + " (after " + std::to_string(count_) + " rounds)");
  }

 private:
  std::string game_;
  int mode_;
  int count_ = 0;
};

// A game's setMode, given a mode already known to be in its list.
using SetMode = std::function<void(ResetContext&, int, Rounds&)>;

// ALE's readRam(offset): RIOT RAM at 0x80 + (offset & 0x7F).
uint8_t ram(ResetContext& ctx, int offset) {
  return ctx.read_ram(static_cast<uint16_t>(0x80 + (offset & 0x7F)));
}

// ALE's getDecimalScore of one byte: two BCD digits.
int decimal(uint8_t byte) { return 10 * (byte >> 4) + (byte & 0x0F); }

// Presses SELECT for `frames` frames at a time until `reached()` holds; the
// condition is evaluated first (no press when the mode is already selected).
template <class Reached>
void select_until(ResetContext& ctx, int frames, Rounds& rounds, Reached reached) {
  while (!reached()) {
    rounds.next();
    ctx.press_select(frames);
  }
}

// The common setMode: press SELECT until the byte at `offset` equals the
// mode, then soft reset.
SetMode select_byte(int offset, int frames) {
  return [offset, frames](ResetContext& ctx, int m, Rounds& rounds) {
    select_until(ctx, frames, rounds, [&] { return ram(ctx, offset) == m; });
    ctx.soft_reset();
  };
}

// As select_byte, but the byte at `offset` must equal target(m).
SetMode select_byte_to(int offset, int frames, int (*target)(int)) {
  return [offset, frames, target](ResetContext& ctx, int m, Rounds& rounds) {
    const int want = target(m);
    select_until(ctx, frames, rounds, [&] { return ram(ctx, offset) == want; });
    ctx.soft_reset();
  };
}

// As select_byte, for games whose byte holds the mode plus one: ALE reads it
// into an unsigned char minus one (0 reads as 255).
SetMode select_byte_minus_one(int offset, int frames) {
  return [offset, frames](ResetContext& ctx, int m, Rounds& rounds) {
    select_until(ctx, frames, rounds,
                 [&] { return static_cast<uint8_t>(ram(ctx, offset) - 1) == m; });
    ctx.soft_reset();
  };
}

// As select_byte, with one press of `first_frames` before the loop (opens the
// game's selection screen).
SetMode select_byte_after_press(int first_frames, int offset, int frames) {
  return [first_frames, offset, frames](ResetContext& ctx, int m, Rounds& rounds) {
    ctx.press_select(first_frames);
    select_until(ctx, frames, rounds, [&] { return ram(ctx, offset) == m; });
    ctx.soft_reset();
  };
}

// Adventure: the mode is bits 1-2 of 0xDD. Each round holds SELECT for a
// random time (the game seeds its level 3 layout from a frame counter), then
// one NOOP act lets the game's debouncer see the release.
void adventure(ResetContext& ctx, int m, Rounds& rounds) {
  auto mode = [&] { return (ram(ctx, 0xDD) >> 1) & 0x03; };
  while (mode() != m) {
    rounds.next();
    ctx.press_select(static_cast<int>(2 + ctx.env_rng_next() % 256));
    ctx.act(kNoop);
  }
  ctx.soft_reset();
}

// Backgammon: one mode, selected when 0xDC holds 3.
void backgammon(ResetContext& ctx, int, Rounds& rounds) {
  select_until(ctx, 1, rounds, [&] { return ram(ctx, 0xDC) == 3; });
  ctx.soft_reset();
}

// Berzerk: 20 NOOP acts (the game ignores SELECT until then), then the usual.
void berzerk(ResetContext& ctx, int m, Rounds& rounds) {
  for (int i = 0; i < 20; ++i) ctx.act(kNoop);
  select_until(ctx, 2, rounds, [&] { return ram(ctx, 0x80) == m; });
  ctx.soft_reset();
}

// Double Dunk: a menu of yes/no options walked with the joystick; each step
// is an act of the direction followed by a NOOP act.
void double_dunk(ResetContext& ctx, int m, Rounds& rounds) {
  auto step = [&](int action) {
    rounds.next();
    ctx.act(action);
    ctx.act(kNoop);
  };
  // Down to the next menu entry: until the cursor byte 0xB0 changes.
  auto go_down = [&] {
    const uint8_t previous = ram(ctx, 0xB0);
    while (previous == ram(ctx, 0xB0)) step(kDown);
  };
  // The option's bit in 0x80 set (right) or cleared (left).
  auto set_option = [&](bool on, uint8_t bit) {
    if (on) {
      while ((ram(ctx, 0x80) & bit) != bit) step(kRight);
    } else {
      while ((ram(ctx, 0x80) & bit) == bit) step(kLeft);
    }
  };
  ctx.press_select(1);
  go_down();
  go_down();
  set_option(m & 1, 0x08);  // three-point shots
  go_down();
  set_option(m & 2, 0x10);  // ten-second violation
  go_down();
  set_option(m & 4, 0x04);  // three-second violation
  go_down();
  set_option(m & 8, 0x20);  // fouls
  ctx.soft_reset();
  ctx.act(kUpFire);
  ctx.act(kNoop);
}

// E.T.: 0xEA holds the mode plus one; ALE gives up after 100 presses.
void et(ResetContext& ctx, int m, Rounds& rounds) {
  auto mode = [&] { return static_cast<uint8_t>(ram(ctx, 0xEA) - 1); };
  int attempts = 0;
  while (mode() != m && attempts < 100) {
    rounds.next();
    ctx.press_select(25);
    ++attempts;
  }
  if (mode() != m) rounds.fail("ALE gives up after 100 presses of SELECT");
  ctx.soft_reset();
}

// Gopher: a soft reset first, then the usual with 5-frame presses.
void gopher(ResetContext& ctx, int m, Rounds& rounds) {
  ctx.soft_reset();
  select_until(ctx, 5, rounds, [&] { return ram(ctx, 0xD3) == m; });
  ctx.soft_reset();
}

// Human Cannonball: 0xB6 holds the mode plus one, 0xB7 the players (1 wanted).
void human_cannonball(ResetContext& ctx, int m, Rounds& rounds) {
  select_until(ctx, 2, rounds, [&] {
    const uint8_t mode = static_cast<uint8_t>(ram(ctx, 0xB6) - 1);
    const uint8_t players = ram(ctx, 0xB7);
    return mode == m && players == 1;
  });
  ctx.soft_reset();
}

// James Bond: on the title screen 0x8C holds the mode plus 0x48.
void james_bond(ResetContext& ctx, int m, Rounds& rounds) {
  select_until(ctx, 20, rounds, [&] {
    const uint8_t mode = ram(ctx, 0x8C);
    return mode == m || mode == m + 0x48;
  });
  ctx.soft_reset();
}

// Kangaroo: on the title screen 0xBA holds the mode plus 0x80.
void kangaroo(ResetContext& ctx, int m, Rounds& rounds) {
  select_until(ctx, 2, rounds, [&] {
    const uint8_t mode = ram(ctx, 0xBA);
    return mode == m || mode == m + 0x80;
  });
  ctx.soft_reset();
}

// Klax: the mode lives in the cartridge's RAM, read through its read port.
void klax(ResetContext& ctx, int m, Rounds& rounds) {
  select_until(ctx, 2, rounds, [&] { return ctx.read_mapped(0xF0EA) == m; });
  ctx.soft_reset();
}

// Ms. Pac-Man: mode 0 is 0x99 = 1 with variation 0xA1 = 1; mode m > 0 is
// 0x99 = m with variation 0.
void ms_pacman(ResetContext& ctx, int m, Rounds& rounds) {
  const int want_mode = m == 0 ? 1 : m;
  const int want_variation = m == 0 ? 1 : 0;
  select_until(ctx, 10, rounds, [&] {
    const uint8_t mode = ram(ctx, 0x99);
    const uint8_t variation = ram(ctx, 0xA1);
    return mode == want_mode && variation == want_variation;
  });
  ctx.soft_reset();
}

// Pac-Man: 0xCC holds the mode plus one; 0xE6 = 0 is one player.
void pacman(ResetContext& ctx, int m, Rounds& rounds) {
  select_until(ctx, 2, rounds, [&] {
    const uint8_t mode = static_cast<uint8_t>(ram(ctx, 0xCC) - 1);
    const bool one_player = ram(ctx, 0xE6) == 0;
    return mode == m && one_player;
  });
  ctx.soft_reset();
}

// Space War: 0xA7 holds the mode in BCD.
void space_war(ResetContext& ctx, int m, Rounds& rounds) {
  select_until(ctx, 2, rounds, [&] { return decimal(ram(ctx, 0xA7)) == m; });
  ctx.soft_reset();
}

// Video Checkers: games 11-19 (reverse checkers) are stored as 17-25.
void video_checkers(ResetContext& ctx, int m, Rounds& rounds) {
  const int want = m >= 11 ? m + 6 : m;
  select_until(ctx, 1, rounds, [&] { return ram(ctx, 0xF6) == want; });
  ctx.soft_reset();
}

// Video Cube: mode = cube * 100 + variant. The variant picks game 1, 3 or 9
// (0xFB's low five bits hold the game minus one); after the soft reset the
// joystick moves right until the BCD cube number at 0x9F matches. A mode
// below 100 keeps the settings' cube, which ALE's reset sets to 1.
void video_cube(ResetContext& ctx, int m, Rounds& rounds) {
  static constexpr int kGames[3] = {1, 3, 9};
  const int cube = m >= 100 ? m / 100 : 1;
  const int want = kGames[m % 100] - 1;
  select_until(ctx, 2, rounds, [&] { return (ram(ctx, 0xFB) & 0x1F) == want; });
  ctx.soft_reset();
  // ALE keeps the BCD value in an unsigned char.
  while (static_cast<uint8_t>(decimal(ram(ctx, 0x9F))) != cube) {
    rounds.next();
    ctx.act(kRight);
  }
}

int one_plus_twice(int m) { return 1 + 2 * m; }
int twice(int m) { return 2 * m; }
int one_plus_thrice(int m) { return 1 + 3 * m; }
int plus_one(int m) { return m + 1; }

std::vector<int> range(int first, int count, int step = 1) {
  std::vector<int> values(count);
  for (int i = 0; i < count; ++i) values[i] = first + i * step;
  return values;
}

std::vector<int> repeat(int count, int action) { return std::vector<int>(count, action); }

std::vector<int> concat(std::vector<int> a, const std::vector<int>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

struct Game {
  GameModes facts;
  SetMode set_mode;  // empty: ALE's default (mode 0 only, nothing to do)
};

Game game(const char* id, std::vector<int> modes, std::vector<int> difficulties,
          std::vector<int> starting_actions = {}, SetMode set_mode = {}) {
  const int default_mode = modes.front();
  const bool overrides = static_cast<bool>(set_mode);
  return Game{GameModes{id, std::move(modes), default_mode, std::move(difficulties),
                        std::move(starting_actions), overrides},
              std::move(set_mode)};
}

const std::vector<int> kOnlyZero = {0};
const std::vector<int> kD01 = {0, 1};
const std::vector<int> kD03 = {0, 3};
const std::vector<int> kD0123 = {0, 1, 2, 3};

// ALE's settings classes in ALE's order (src/ale/games/Roms.cpp).
std::vector<Game> build_games() {
  std::vector<Game> g;
  g.push_back(game("adventure", {0, 1, 2}, kD0123, {}, adventure));
  g.push_back(
      game("air_raid", range(1, 8), kOnlyZero, {kFire}, select_byte_after_press(20, 0xAA, 10)));
  g.push_back(game("alien", range(0, 4), kD0123, {}, select_byte(0x81, 1)));
  g.push_back(game("amidar", kOnlyZero, kD03));
  g.push_back(game("assault", kOnlyZero, kOnlyZero));
  g.push_back(game("asterix", kOnlyZero, kOnlyZero, {kFire}));
  g.push_back(game("asteroids", concat(range(0, 32), {0x80}), kD03, {}, select_byte(0x80, 2)));
  g.push_back(game("atlantis", range(0, 4), kOnlyZero, {}, select_byte(0x8D, 2)));
  g.push_back(game("atlantis2", kOnlyZero, kOnlyZero));
  g.push_back(game("backgammon", {0}, {3}, {}, backgammon));
  g.push_back(game("bank_heist", range(0, 8, 4), kD0123, {}, select_byte(0x80, 1)));
  g.push_back(game("basic_math", {5, 6, 7, 8}, {0, 2, 3}, {}, select_byte(0xC5, 2)));
  g.push_back(game("battle_zone", range(1, 3), kOnlyZero, {}, select_byte(0xA1, 2)));
  g.push_back(game("beam_rider", kOnlyZero, kD01, {kRight}));
  g.push_back(game("berzerk", concat(range(1, 9), {0x10, 0x11, 0x12}), kOnlyZero, {}, berzerk));
  g.push_back(game("blackjack", kOnlyZero, kD0123));
  // ALE reads "RAM 2", i.e. 0x82.
  g.push_back(game("bowling", {0, 2, 4}, kD01, {}, select_byte(0x82, 2)));
  g.push_back(game("boxing", kOnlyZero, kD0123));
  g.push_back(game("breakout", range(0, 12, 4), kD01, {}, select_byte(0xB2, 1)));
  g.push_back(game("carnival", kOnlyZero, kOnlyZero));
  g.push_back(game("casino", {0, 2, 3}, kD0123, concat(repeat(60, kNoop), {kFire, kFire}),
                   select_byte(0xD4, 2)));
  g.push_back(game("centipede", {0x16, 0x56}, kOnlyZero, {}, select_byte(0xA7, 2)));
  g.push_back(game("chopper_command", {0, 2}, kD01, {}, select_byte(0xE0, 2)));
  g.push_back(game("crazy_climber", range(0, 4), kD01, {}, select_byte(0x80, 2)));
  g.push_back(game("crossbow", {0, 2, 4, 6}, kD01, {}, select_byte_minus_one(0x8D, 2)));
  g.push_back(game("darkchambers", kOnlyZero, kOnlyZero, repeat(486, kNoop)));
  g.push_back(game("defender", concat(range(1, 9), {16}), kD01, {}, select_byte(0x9B, 2)));
  g.push_back(game("demon_attack", {1, 3, 5, 7}, kD01, {}, select_byte(0xEA, 1)));
  g.push_back(game("donkey_kong", kOnlyZero, kOnlyZero));
  g.push_back(game("double_dunk", range(0, 16), kOnlyZero, {kUpFire}, double_dunk));
  g.push_back(game("earthworld", kOnlyZero, kOnlyZero));
  g.push_back(game("elevator_action", kOnlyZero, kOnlyZero, repeat(16, kFire)));
  g.push_back(game("enduro", kOnlyZero, kOnlyZero, {kFire}));
  g.push_back(game("entombed", kOnlyZero, {0, 2}, concat({kFire}, repeat(5, kNoop))));
  g.push_back(game("et", {0, 1, 2}, kD0123, {}, et));
  g.push_back(game("fishing_derby", kOnlyZero, kD0123));
  g.push_back(game("flag_capture", {8, 9, 10}, kOnlyZero, {}, select_byte(0xD6, 2)));
  g.push_back(game("freeway", range(0, 8), kD01, {}, select_byte(0x80, 1)));
  g.push_back(game("frogger", {0, 1, 2}, kD01, {}, select_byte_to(0xDD, 2, one_plus_twice)));
  g.push_back(game("frostbite", {0, 2}, kOnlyZero, {}, select_byte(0x80, 1)));
  g.push_back(game("galaxian", range(1, 9), kD01, {}, select_byte(0xB3, 1)));
  g.push_back(game("gopher", {0, 2}, kD01, {kFire}, gopher));
  g.push_back(game("gravitar", range(0, 5), kOnlyZero, repeat(16, kFire), select_byte(0x80, 10)));
  g.push_back(game("hangman", range(0, 4), kD01, {}, select_byte(0xEE, 2)));
  g.push_back(game("haunted_house", range(0, 9), kD01, {}, select_byte(0xCC, 2)));
  g.push_back(game("hero", range(0, 5), kOnlyZero, {}, select_byte(0x80, 1)));
  g.push_back(game("human_cannonball", range(0, 8), kD01, {}, human_cannonball));
  g.push_back(game("ice_hockey", {0, 2}, kD0123, {}, select_byte(0x80, 2)));
  g.push_back(game("jamesbond", {0, 1}, kOnlyZero, {}, james_bond));
  g.push_back(game("journey_escape", kOnlyZero, kD01, {kFire}));
  g.push_back(game("kaboom", kOnlyZero, kOnlyZero, {kFire}));
  g.push_back(game("kangaroo", {0, 1}, kOnlyZero, {}, kangaroo));
  g.push_back(game("koolaid", kOnlyZero, kOnlyZero));
  g.push_back(game("keystone_kapers", kOnlyZero, kOnlyZero, {kAleResetAction}));
  g.push_back(game("king_kong", range(0, 4), kOnlyZero, {}, select_byte_to(0xEC, 2, twice)));
  g.push_back(game("klax", {0, 1, 2}, kOnlyZero, {kFire, kNoop}, klax));
  g.push_back(game("krull", kOnlyZero, kOnlyZero));
  g.push_back(game("kung_fu_master", kOnlyZero, kOnlyZero));
  g.push_back(game("laser_gates", kOnlyZero, kOnlyZero, {kAleResetAction}));
  g.push_back(
      game("lost_luggage", {0, 1}, kD01, {kFire}, select_byte_to(0x94, 2, one_plus_thrice)));
  g.push_back(game("mario_bros", {0, 2, 4, 6}, kOnlyZero,
                   concat(repeat(10, kNoop), repeat(7, kFire)), select_byte(0x80, 5)));
  g.push_back(game("miniature_golf", kOnlyZero, kD01));
  g.push_back(game("montezuma_revenge", kOnlyZero, kOnlyZero));
  g.push_back(game("mr_do", range(0, 4), kOnlyZero, {kFire}, select_byte(0x80, 5)));
  g.push_back(game("ms_pacman", range(0, 4), kOnlyZero, {}, ms_pacman));
  g.push_back(game("name_this_game", {0x08, 0x18, 0x28}, kD01, {}, select_byte(0xDE, 2)));
  g.push_back(game("othello", {0, 1, 2}, {0, 2}, {}, select_byte_minus_one(0xDE, 2)));
  g.push_back(game("pacman", range(0, 8), kD01, {}, pacman));
  g.push_back(game("phoenix", kOnlyZero, kOnlyZero));
  g.push_back(game("pitfall", kOnlyZero, kOnlyZero, {kUp}));
  g.push_back(game("pitfall2", kOnlyZero, kOnlyZero, {kUp}));
  g.push_back(game("pong", {0, 1}, kD0123, {}, select_byte(0x96, 2)));
  g.push_back(
      game("pooyan", {0x0A, 0x1E, 0x32, 0x46}, kOnlyZero, {}, select_byte_after_press(2, 0xBD, 2)));
  g.push_back(game("private_eye", range(0, 5), kD0123, {kUp}, select_byte(0x80, 2)));
  g.push_back(game("qbert", kOnlyZero, kD01));
  g.push_back(game("riverraid", kOnlyZero, kD01));
  g.push_back(game("road_runner", kOnlyZero, kOnlyZero));
  g.push_back(game("robotank", kOnlyZero, kOnlyZero));
  g.push_back(game("seaquest", kOnlyZero, kD01));
  g.push_back(game("sir_lancelot", kOnlyZero, kOnlyZero, {kAleResetAction, kLeft}));
  g.push_back(game("skiing", kOnlyZero, kOnlyZero, repeat(16, kDown)));
  g.push_back(game("solaris", kOnlyZero, kOnlyZero));
  g.push_back(game("space_invaders", range(0, 16), kD01, {}, select_byte(0xDC, 2)));
  g.push_back(game("space_war", range(6, 12), kOnlyZero, {}, space_war));
  g.push_back(game("star_gunner", range(0, 4), kOnlyZero, {}, select_byte(0xF4, 15)));
  g.push_back(game("superman", kOnlyZero, kD0123));
  g.push_back(game("surround", {0, 2}, kD0123, {}, select_byte_to(0xF9, 2, plus_one)));
  g.push_back(game("tennis", {0, 2}, kD0123, {}, select_byte(0x80, 2)));
  g.push_back(game("tetris", kOnlyZero, kOnlyZero));
  g.push_back(game("tic_tac_toe_3d", range(0, 9), {0, 2}, {}, select_byte(0x88, 2)));
  g.push_back(game("time_pilot", kOnlyZero, {0, 1, 2}));
  g.push_back(game("turmoil", range(0, 9), kOnlyZero, {kFire}, select_byte(0xEA, 2)));
  g.push_back(game("trondead", kOnlyZero, kD01));
  g.push_back(game("tutankham", {0, 4, 8, 12}, kOnlyZero, {}, select_byte(0xAB, 2)));
  g.push_back(game("up_n_down", kOnlyZero, kD0123, {kFire}));
  g.push_back(game("venture", kOnlyZero, kD0123));
  g.push_back(
      game("video_checkers", concat(range(1, 9), range(11, 9)), kOnlyZero, {}, video_checkers));
  g.push_back(game("video_chess", range(0, 5), kOnlyZero, {}, select_byte(0xEA, 1)));
  std::vector<int> cube_modes;
  for (int cube = 0; cube <= 50; ++cube) {
    for (int variant = 0; variant < 3; ++variant) cube_modes.push_back(cube * 100 + variant);
  }
  g.push_back(game("video_cube", std::move(cube_modes), kD01,
                   concat(repeat(61, kNoop), {kFire, kNoop, kNoop}), video_cube));
  g.push_back(game("video_pinball", {0, 2}, kD01, {}, select_byte(0xC1, 2)));
  g.push_back(game("wizard_of_wor", kOnlyZero, kD01));
  g.push_back(game("word_zapper", range(0, 24), kD0123,
                   concat(repeat(486, kNoop), {kFire, kNoop, kNoop}), select_byte(0xDB, 2)));
  g.push_back(game("yars_revenge", {0, 0x20, 0x40, 0x60}, kD01, {kFire},
                   select_byte_after_press(2, 0xE3, 1)));
  g.push_back(game("zaxxon", {0, 8, 16, 24}, kOnlyZero, {}, select_byte(0x82, 10)));
  return g;
}

const std::vector<Game>& games() {
  static const std::vector<Game> table = build_games();
  return table;
}

// The project's own games (roms/*.asm): found by id like ALE's, but not
// among all_game_modes(), which lists ALE's.
const std::vector<Game>& project_games() {
  static const std::vector<Game> table = {game("catch", kOnlyZero, kOnlyZero)};
  return table;
}

const Game* find_game(const std::string& rom_id) {
  for (const Game& g : games()) {
    if (rom_id == g.facts.rom_id) return &g;
  }
  for (const Game& g : project_games()) {
    if (rom_id == g.facts.rom_id) return &g;
  }
  return nullptr;
}

}  // namespace

const GameModes* find_game_modes(const std::string& rom_id) {
  const Game* g = find_game(rom_id);
  return g ? &g->facts : nullptr;
}

const std::vector<GameModes>& all_game_modes() {
  static const std::vector<GameModes> facts = [] {
    std::vector<GameModes> out;
    for (const Game& g : games()) out.push_back(g.facts);
    return out;
  }();
  return facts;
}

void set_game_mode(const std::string& rom_id, int mode, ResetContext& ctx) {
  const Game* g = find_game(rom_id);
  static const std::vector<int> kDefaultModes = {0};
  const std::vector<int>& modes = g ? g->facts.modes : kDefaultModes;
  if (std::find(modes.begin(), modes.end(), mode) == modes.end()) {
    throw Error("game mode: " + std::to_string(mode) + " is not available for '" + rom_id +
                "'; expected one of " + join(modes));
  }
  if (!g || !g->set_mode) return;
  Rounds rounds(rom_id, mode);
  g->set_mode(ctx, mode, rounds);
}

}  // namespace cule
