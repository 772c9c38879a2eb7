#include "cule/game_modes.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "cule/error.hpp"
#include "cule/game_rules.hpp"

namespace cule {
namespace {

std::string join(const std::vector<int>& values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(values[i]);
  }
  return text;
}

// A ResetContext as game_set_mode's Ctx.
struct ResetContextRef {
  ResetContext& ctx;
  uint8_t read_ram(uint16_t address) { return ctx.read_ram(address); }
  uint8_t read_mapped(uint16_t address) { return ctx.read_mapped(address); }
  void press_select(int frames) { ctx.press_select(frames); }
  void soft_reset() { ctx.soft_reset(); }
  void act(int action) { ctx.act(action); }
  uint32_t env_rng_next() { return ctx.env_rng_next(); }
};

std::vector<int> range(int first, int count, int step = 1) {
  std::vector<int> values(count);
  for (int i = 0; i < count; ++i) values[i] = first + i * step;
  return values;
}

std::vector<int> concat(std::vector<int> a, const std::vector<int>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// A game's modes and difficulties; its starting actions and whether it
// overrides setMode come from kernels/game_modes.hpp, the one place the reset
// code (host and device) reads them.
GameModes game(const char* id, std::vector<int> modes, std::vector<int> difficulties) {
  const Game g = game_from_id(id);
  std::vector<int> starting_actions(game_starting_action_count(g));
  for (size_t k = 0; k < starting_actions.size(); ++k) {
    starting_actions[k] = game_starting_action(g, int(k));
  }
  const int default_mode = modes.front();
  return GameModes{id,
                   std::move(modes),
                   default_mode,
                   std::move(difficulties),
                   std::move(starting_actions),
                   game_overrides_set_mode(g)};
}

const std::vector<int> kOnlyZero = {0};
const std::vector<int> kD01 = {0, 1};
const std::vector<int> kD03 = {0, 3};
const std::vector<int> kD0123 = {0, 1, 2, 3};

// ALE's settings classes in ALE's order (src/ale/games/Roms.cpp).
std::vector<GameModes> build_games() {
  std::vector<GameModes> g;
  g.push_back(game("adventure", {0, 1, 2}, kD0123));
  g.push_back(game("air_raid", range(1, 8), kOnlyZero));
  g.push_back(game("alien", range(0, 4), kD0123));
  g.push_back(game("amidar", kOnlyZero, kD03));
  g.push_back(game("assault", kOnlyZero, kOnlyZero));
  g.push_back(game("asterix", kOnlyZero, kOnlyZero));
  g.push_back(game("asteroids", concat(range(0, 32), {0x80}), kD03));
  g.push_back(game("atlantis", range(0, 4), kOnlyZero));
  g.push_back(game("atlantis2", kOnlyZero, kOnlyZero));
  g.push_back(game("backgammon", {0}, {3}));
  g.push_back(game("bank_heist", range(0, 8, 4), kD0123));
  g.push_back(game("basic_math", {5, 6, 7, 8}, {0, 2, 3}));
  g.push_back(game("battle_zone", range(1, 3), kOnlyZero));
  g.push_back(game("beam_rider", kOnlyZero, kD01));
  g.push_back(game("berzerk", concat(range(1, 9), {0x10, 0x11, 0x12}), kOnlyZero));
  g.push_back(game("blackjack", kOnlyZero, kD0123));
  g.push_back(game("bowling", {0, 2, 4}, kD01));
  g.push_back(game("boxing", kOnlyZero, kD0123));
  g.push_back(game("breakout", range(0, 12, 4), kD01));
  g.push_back(game("carnival", kOnlyZero, kOnlyZero));
  g.push_back(game("casino", {0, 2, 3}, kD0123));
  g.push_back(game("centipede", {0x16, 0x56}, kOnlyZero));
  g.push_back(game("chopper_command", {0, 2}, kD01));
  g.push_back(game("crazy_climber", range(0, 4), kD01));
  g.push_back(game("crossbow", {0, 2, 4, 6}, kD01));
  g.push_back(game("darkchambers", kOnlyZero, kOnlyZero));
  g.push_back(game("defender", concat(range(1, 9), {16}), kD01));
  g.push_back(game("demon_attack", {1, 3, 5, 7}, kD01));
  g.push_back(game("donkey_kong", kOnlyZero, kOnlyZero));
  g.push_back(game("double_dunk", range(0, 16), kOnlyZero));
  g.push_back(game("earthworld", kOnlyZero, kOnlyZero));
  g.push_back(game("elevator_action", kOnlyZero, kOnlyZero));
  g.push_back(game("enduro", kOnlyZero, kOnlyZero));
  g.push_back(game("entombed", kOnlyZero, {0, 2}));
  g.push_back(game("et", {0, 1, 2}, kD0123));
  g.push_back(game("fishing_derby", kOnlyZero, kD0123));
  g.push_back(game("flag_capture", {8, 9, 10}, kOnlyZero));
  g.push_back(game("freeway", range(0, 8), kD01));
  g.push_back(game("frogger", {0, 1, 2}, kD01));
  g.push_back(game("frostbite", {0, 2}, kOnlyZero));
  g.push_back(game("galaxian", range(1, 9), kD01));
  g.push_back(game("gopher", {0, 2}, kD01));
  g.push_back(game("gravitar", range(0, 5), kOnlyZero));
  g.push_back(game("hangman", range(0, 4), kD01));
  g.push_back(game("haunted_house", range(0, 9), kD01));
  g.push_back(game("hero", range(0, 5), kOnlyZero));
  g.push_back(game("human_cannonball", range(0, 8), kD01));
  g.push_back(game("ice_hockey", {0, 2}, kD0123));
  g.push_back(game("jamesbond", {0, 1}, kOnlyZero));
  g.push_back(game("journey_escape", kOnlyZero, kD01));
  g.push_back(game("kaboom", kOnlyZero, kOnlyZero));
  g.push_back(game("kangaroo", {0, 1}, kOnlyZero));
  g.push_back(game("koolaid", kOnlyZero, kOnlyZero));
  g.push_back(game("keystone_kapers", kOnlyZero, kOnlyZero));
  g.push_back(game("king_kong", range(0, 4), kOnlyZero));
  g.push_back(game("klax", {0, 1, 2}, kOnlyZero));
  g.push_back(game("krull", kOnlyZero, kOnlyZero));
  g.push_back(game("kung_fu_master", kOnlyZero, kOnlyZero));
  g.push_back(game("laser_gates", kOnlyZero, kOnlyZero));
  g.push_back(game("lost_luggage", {0, 1}, kD01));
  g.push_back(game("mario_bros", {0, 2, 4, 6}, kOnlyZero));
  g.push_back(game("miniature_golf", kOnlyZero, kD01));
  g.push_back(game("montezuma_revenge", kOnlyZero, kOnlyZero));
  g.push_back(game("mr_do", range(0, 4), kOnlyZero));
  g.push_back(game("ms_pacman", range(0, 4), kOnlyZero));
  g.push_back(game("name_this_game", {0x08, 0x18, 0x28}, kD01));
  g.push_back(game("othello", {0, 1, 2}, {0, 2}));
  g.push_back(game("pacman", range(0, 8), kD01));
  g.push_back(game("phoenix", kOnlyZero, kOnlyZero));
  g.push_back(game("pitfall", kOnlyZero, kOnlyZero));
  g.push_back(game("pitfall2", kOnlyZero, kOnlyZero));
  g.push_back(game("pong", {0, 1}, kD0123));
  g.push_back(game("pooyan", {0x0A, 0x1E, 0x32, 0x46}, kOnlyZero));
  g.push_back(game("private_eye", range(0, 5), kD0123));
  g.push_back(game("qbert", kOnlyZero, kD01));
  g.push_back(game("riverraid", kOnlyZero, kD01));
  g.push_back(game("road_runner", kOnlyZero, kOnlyZero));
  g.push_back(game("robotank", kOnlyZero, kOnlyZero));
  g.push_back(game("seaquest", kOnlyZero, kD01));
  g.push_back(game("sir_lancelot", kOnlyZero, kOnlyZero));
  g.push_back(game("skiing", kOnlyZero, kOnlyZero));
  g.push_back(game("solaris", kOnlyZero, kOnlyZero));
  g.push_back(game("space_invaders", range(0, 16), kD01));
  g.push_back(game("space_war", range(6, 12), kOnlyZero));
  g.push_back(game("star_gunner", range(0, 4), kOnlyZero));
  g.push_back(game("superman", kOnlyZero, kD0123));
  g.push_back(game("surround", {0, 2}, kD0123));
  g.push_back(game("tennis", {0, 2}, kD0123));
  g.push_back(game("tetris", kOnlyZero, kOnlyZero));
  g.push_back(game("tic_tac_toe_3d", range(0, 9), {0, 2}));
  g.push_back(game("time_pilot", kOnlyZero, {0, 1, 2}));
  g.push_back(game("turmoil", range(0, 9), kOnlyZero));
  g.push_back(game("trondead", kOnlyZero, kD01));
  g.push_back(game("tutankham", {0, 4, 8, 12}, kOnlyZero));
  g.push_back(game("up_n_down", kOnlyZero, kD0123));
  g.push_back(game("venture", kOnlyZero, kD0123));
  g.push_back(game("video_checkers", concat(range(1, 9), range(11, 9)), kOnlyZero));
  g.push_back(game("video_chess", range(0, 5), kOnlyZero));
  std::vector<int> cube_modes;
  for (int cube = 0; cube <= 50; ++cube) {
    for (int variant = 0; variant < 3; ++variant) cube_modes.push_back(cube * 100 + variant);
  }
  g.push_back(game("video_cube", std::move(cube_modes), kD01));
  g.push_back(game("video_pinball", {0, 2}, kD01));
  g.push_back(game("wizard_of_wor", kOnlyZero, kD01));
  g.push_back(game("word_zapper", range(0, 24), kD0123));
  g.push_back(game("yars_revenge", {0, 0x20, 0x40, 0x60}, kD01));
  g.push_back(game("zaxxon", {0, 8, 16, 24}, kOnlyZero));
  return g;
}

// The project's own games (roms/*.asm): found by id like ALE's, but not
// among all_game_modes(), which lists ALE's.
const std::vector<GameModes>& project_games() {
  static const std::vector<GameModes> table = {game("catch", kOnlyZero, kOnlyZero)};
  return table;
}

}  // namespace

const std::vector<GameModes>& all_game_modes() {
  static const std::vector<GameModes> table = build_games();
  return table;
}

const GameModes* find_game_modes(const std::string& rom_id) {
  for (const GameModes& g : all_game_modes()) {
    if (rom_id == g.rom_id) return &g;
  }
  for (const GameModes& g : project_games()) {
    if (rom_id == g.rom_id) return &g;
  }
  return nullptr;
}

void set_game_mode(const std::string& rom_id, int mode, ResetContext& ctx) {
  const GameModes* g = find_game_modes(rom_id);
  static const std::vector<int> kDefaultModes = {0};
  const std::vector<int>& modes = g ? g->modes : kDefaultModes;
  if (std::find(modes.begin(), modes.end(), mode) == modes.end()) {
    throw Error("game mode: " + std::to_string(mode) + " is not available for '" + rom_id +
                "'; expected one of " + join(modes));
  }
  if (!g) return;
  ResetContextRef ref{ctx};
  const ModeStatus status = game_set_mode(game_from_id(rom_id), mode, ref);
  if (status == ModeStatus::ok) return;
  const bool gave_up = status == ModeStatus::gave_up;
  const std::string why =
      gave_up ? "ALE gives up after " + std::to_string(kEtModeMaxPresses) + " presses of SELECT"
              : std::string("the game never reached it");
  const int rounds = gave_up ? kEtModeMaxPresses : kModeMaxRounds;
  throw Error("game mode: selecting " + std::to_string(mode) + " of '" + rom_id +
              "' failed: " + why + " (after " + std::to_string(rounds) + " rounds)");
}

}  // namespace cule
