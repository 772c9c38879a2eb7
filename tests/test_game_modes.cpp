// Game modes: the facts of ALE's settings classes (v0.12.1) and the sequences
// their setMode performs, checked on a fake console whose RAM each test
// scripts. The expected sequences are written out by hand from ALE's sources
// (src/ale/games/supported/*.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cule/error.hpp"
#include "cule/game_modes.hpp"
#include "cule/game_rules.hpp"
#include "kernels/game_modes.hpp"

namespace cule {
namespace {

using Events = std::vector<std::string>;

// Records every console call; `react` lets a test change RAM after a call, as
// the game would.
class FakeConsole : public ResetContext {
 public:
  std::map<uint16_t, uint8_t> ram;     // by CPU address 0x80-0xFF
  std::map<uint16_t, uint8_t> mapped;  // by full CPU address
  std::vector<uint32_t> rng_values;
  std::function<void(FakeConsole&, const std::string&)> react;
  Events events;
  std::set<uint16_t> ram_reads;
  std::set<uint16_t> mapped_reads;

  uint8_t read_ram(uint16_t address) override {
    ram_reads.insert(address);
    return ram[address];
  }
  uint8_t read_mapped(uint16_t address) override {
    mapped_reads.insert(address);
    return mapped[address];
  }
  void press_select(int frames) override { record("select " + std::to_string(frames)); }
  void soft_reset() override { record("soft_reset"); }
  void act(int action) override { record("act " + std::to_string(action)); }
  uint32_t env_rng_next() override {
    record("rng");
    const uint32_t value = rng_values.at(next_rng_++);
    return value;
  }

 private:
  void record(const std::string& event) {
    events.push_back(event);
    if (react) react(*this, event);
  }
  size_t next_rng_ = 0;
};

// Each press of SELECT (of any length) adds `step` to the byte at `address`.
std::function<void(FakeConsole&, const std::string&)> select_adds(uint16_t address, int step) {
  return [address, step](FakeConsole& c, const std::string& e) {
    if (e.rfind("select", 0) == 0) c.ram[address] = uint8_t(c.ram[address] + step);
  };
}

Events run(const std::string& game, int mode, FakeConsole& console) {
  set_game_mode(game, mode, console);
  return console.events;
}

TEST(GameModes, PongPressesSelectTwoFramesAtATimeUntil0x96Matches) {
  FakeConsole c;
  c.ram[0x96] = 0;
  c.react = select_adds(0x96, 1);
  EXPECT_EQ(run("pong", 1, c), (Events{"select 2", "soft_reset"}));
  EXPECT_EQ(c.ram_reads, (std::set<uint16_t>{0x96}));
}

TEST(GameModes, DefaultModeAlreadySelectedStillSoftResets) {
  FakeConsole c;
  c.ram[0x96] = 0;
  EXPECT_EQ(run("pong", 0, c), (Events{"soft_reset"}));
}

TEST(GameModes, BowlingReadsRamOffset2AsAddress0x82) {
  FakeConsole c;
  c.react = select_adds(0x82, 2);
  EXPECT_EQ(run("bowling", 4, c), (Events{"select 2", "select 2", "soft_reset"}));
  EXPECT_EQ(c.ram_reads, (std::set<uint16_t>{0x82}));
}

TEST(GameModes, AirRaidOpensTheMenuWithTwentyFramesThenTenFramePresses) {
  FakeConsole c;
  c.ram[0xAA] = 1;
  c.react = select_adds(0xAA, 1);
  EXPECT_EQ(run("air_raid", 3, c), (Events{"select 20", "select 10", "soft_reset"}));
  // The opening press happens even when the mode would already match.
  FakeConsole d;
  d.ram[0xAA] = 1;
  EXPECT_EQ(run("air_raid", 1, d), (Events{"select 20", "soft_reset"}));
}

TEST(GameModes, YarsRevengeAndPooyanPressOnceBeforeTheirLoop) {
  FakeConsole c;
  c.react = select_adds(0xE3, 0x20);
  EXPECT_EQ(run("yars_revenge", 0x40, c), (Events{"select 2", "select 1", "soft_reset"}));
  FakeConsole d;
  d.ram[0xBD] = 0x0A;
  EXPECT_EQ(run("pooyan", 0x0A, d), (Events{"select 2", "soft_reset"}));
}

TEST(GameModes, GopherSoftResetsBeforeAndAfter) {
  FakeConsole c;
  c.react = select_adds(0xD3, 1);
  EXPECT_EQ(run("gopher", 2, c), (Events{"soft_reset", "select 5", "select 5", "soft_reset"}));
}

TEST(GameModes, BerzerkWaitsTwentyNoopActsFirst) {
  FakeConsole c;
  c.ram[0x80] = 1;
  c.react = select_adds(0x80, 1);
  Events expected(20, "act 0");
  expected.push_back("select 2");
  expected.push_back("soft_reset");
  EXPECT_EQ(run("berzerk", 2, c), expected);
}

TEST(GameModes, DoubleDunkWalksItsOptionMenuWithTheJoystick) {
  // Cursor 0xB0 moves down on DOWN; entries 2-5 are the options with bits
  // 0x08, 0x10, 0x04, 0x20 of 0x80; RIGHT sets the entry's bit, LEFT clears it.
  FakeConsole c;
  c.ram[0xB0] = 0;
  c.ram[0x80] = 0x10 | 0x20;
  c.react = [](FakeConsole& f, const std::string& e) {
    static const uint8_t bits[6] = {0, 0, 0x08, 0x10, 0x04, 0x20};
    const uint8_t bit = bits[std::min<int>(f.ram[0xB0], 5)];
    if (e == "act 5") f.ram[0xB0]++;
    if (e == "act 3") f.ram[0x80] |= bit;
    if (e == "act 4") f.ram[0x80] &= uint8_t(~bit);
  };
  // Mode 5: three-point shots on, ten-second off, three-second on, fouls off.
  EXPECT_EQ(run("double_dunk", 5, c),
            (Events{"select 1", "act 5", "act 0", "act 5",      "act 0",  "act 3", "act 0", "act 5",
                    "act 0",    "act 4", "act 0", "act 5",      "act 0",  "act 3", "act 0", "act 5",
                    "act 0",    "act 4", "act 0", "soft_reset", "act 10", "act 0"}));
  EXPECT_EQ(c.ram[0x80], 0x08 | 0x04);
}

TEST(GameModes, VideoCubePicksTheGameThenMovesRightToTheCube) {
  // Mode 301: cube 3, variant 1 = game 3 (0xFB's low bits hold 2).
  FakeConsole c;
  c.ram[0xFB] = 0xE0;  // the upper bits are ignored
  c.ram[0x9F] = 0x01;
  c.react = [](FakeConsole& f, const std::string& e) {
    if (e.rfind("select", 0) == 0) f.ram[0xFB]++;
    if (e == "act 3") f.ram[0x9F]++;
  };
  EXPECT_EQ(run("video_cube", 301, c),
            (Events{"select 2", "select 2", "soft_reset", "act 3", "act 3"}));

  // Mode 2: game 9, and a mode below 100 means cube 1.
  FakeConsole d;
  d.ram[0xFB] = 8;
  d.ram[0x9F] = 0x01;
  EXPECT_EQ(run("video_cube", 2, d), (Events{"soft_reset"}));

  // Mode 1000: cube 10, read in BCD (0x10).
  FakeConsole e;
  e.ram[0xFB] = 0;
  e.ram[0x9F] = 0x08;
  e.react = [](FakeConsole& f, const std::string& ev) {
    if (ev == "act 3") f.ram[0x9F] = f.ram[0x9F] == 0x09 ? 0x10 : f.ram[0x9F] + 1;
  };
  EXPECT_EQ(run("video_cube", 1000, e), (Events{"soft_reset", "act 3", "act 3"}));
}

TEST(GameModes, AdventureHoldsSelectForRandomTimesThenActs) {
  // Mode = bits 1-2 of 0xDD; the game advances after the NOOP act.
  FakeConsole c;
  c.ram[0xDD] = 0x01;  // mode 0 (bit 0 is not part of it)
  c.rng_values = {5, 300};
  c.react = [](FakeConsole& f, const std::string& e) {
    if (e == "act 0") f.ram[0xDD] = uint8_t(f.ram[0xDD] + 2);
  };
  EXPECT_EQ(run("adventure", 2, c),
            (Events{"rng", "select 7", "act 0", "rng", "select 46", "act 0", "soft_reset"}));
}

TEST(GameModes, EtGivesUpAfterOneHundredPresses) {
  FakeConsole c;
  c.ram[0xEA] = 0;  // reads as mode 255: never matches
  EXPECT_THROW(set_game_mode("et", 1, c), Error);
  EXPECT_EQ(c.events, Events(100, "select 25"));

  FakeConsole d;
  d.ram[0xEA] = 1;
  d.react = select_adds(0xEA, 1);
  EXPECT_EQ(run("et", 2, d), (Events{"select 25", "select 25", "soft_reset"}));
}

TEST(GameModes, KlaxReadsItsModeFromCartridgeRam) {
  FakeConsole c;
  c.react = [](FakeConsole& f, const std::string& e) {
    if (e.rfind("select", 0) == 0) f.mapped[0xF0EA]++;
  };
  EXPECT_EQ(run("klax", 2, c), (Events{"select 2", "select 2", "soft_reset"}));
  EXPECT_EQ(c.mapped_reads, (std::set<uint16_t>{0xF0EA}));
  EXPECT_TRUE(c.ram_reads.empty());
}

TEST(GameModes, TwoByteConditions) {
  // Ms. Pac-Man mode 0 wants 0x99 = 1 and variation 0xA1 = 1.
  FakeConsole c;
  c.ram[0x99] = 1;
  c.ram[0xA1] = 0;
  c.react = [](FakeConsole& f, const std::string& e) {
    if (e == "select 10") f.ram[0xA1] = 1;
  };
  EXPECT_EQ(run("ms_pacman", 0, c), (Events{"select 10", "soft_reset"}));

  // Human Cannonball: 0xB6 is the mode plus one; one player (0xB7) wanted.
  FakeConsole d;
  d.ram[0xB6] = 1;
  d.ram[0xB7] = 2;
  d.react = [](FakeConsole& f, const std::string& e) {
    if (e == "select 2") f.ram[0xB7] = 1;
  };
  EXPECT_EQ(run("human_cannonball", 0, d), (Events{"select 2", "soft_reset"}));

  // Pac-Man: 0xCC is the mode plus one; 0xE6 = 0 is one player.
  FakeConsole e;
  e.ram[0xCC] = 4;
  e.ram[0xE6] = 0;
  EXPECT_EQ(run("pacman", 3, e), (Events{"soft_reset"}));
}

TEST(GameModes, ByteEncodings) {
  // Crossbow reads 0x8D minus one into a byte: 0 reads as 255.
  FakeConsole a;
  a.ram[0x8D] = 0;
  a.react = select_adds(0x8D, 1);
  EXPECT_EQ(run("crossbow", 0, a), (Events{"select 2", "soft_reset"}));

  // James Bond's title screen adds 0x48.
  FakeConsole b;
  b.ram[0x8C] = 0x49;
  EXPECT_EQ(run("jamesbond", 1, b), (Events{"soft_reset"}));

  // Kangaroo's title screen adds 0x80.
  FakeConsole k;
  k.ram[0xBA] = 0x81;
  EXPECT_EQ(run("kangaroo", 1, k), (Events{"soft_reset"}));

  // Video Checkers stores games 11-19 as 17-25.
  FakeConsole v;
  v.ram[0xF6] = 18;
  EXPECT_EQ(run("video_checkers", 12, v), (Events{"soft_reset"}));

  // Space War stores the mode in BCD.
  FakeConsole s;
  s.ram[0xA7] = 0x12;
  EXPECT_EQ(run("space_war", 12, s), (Events{"soft_reset"}));

  // Frogger's single-player modes are 1, 3, 5; King Kong's 0, 2, 4, 6;
  // Lost Luggage's 1, 4; Surround's 1, 3.
  FakeConsole f;
  f.ram[0xDD] = 5;
  EXPECT_EQ(run("frogger", 2, f), (Events{"soft_reset"}));
  FakeConsole g;
  g.ram[0xEC] = 6;
  EXPECT_EQ(run("king_kong", 3, g), (Events{"soft_reset"}));
  FakeConsole l;
  l.ram[0x94] = 4;
  EXPECT_EQ(run("lost_luggage", 1, l), (Events{"soft_reset"}));
  FakeConsole r;
  r.ram[0xF9] = 3;
  EXPECT_EQ(run("surround", 2, r), (Events{"soft_reset"}));

  // Backgammon's only mode wants 3 at 0xDC, one-frame presses.
  FakeConsole bg;
  bg.ram[0xDC] = 1;
  bg.react = select_adds(0xDC, 1);
  EXPECT_EQ(run("backgammon", 0, bg), (Events{"select 1", "select 1", "soft_reset"}));
}

TEST(GameModes, PressLengths) {
  struct Case {
    const char* game;
    int mode;
    uint16_t address;
    const char* press;
  };
  const Case cases[] = {
      {"alien", 1, 0x81, "select 1"},
      {"asteroids", 1, 0x80, "select 2"},
      {"bank_heist", 4, 0x80, "select 1"},
      {"breakout", 4, 0xB2, "select 1"},
      {"demon_attack", 3, 0xEA, "select 1"},
      {"freeway", 1, 0x80, "select 1"},
      {"galaxian", 2, 0xB3, "select 1"},
      {"gravitar", 1, 0x80, "select 10"},
      {"hero", 1, 0x80, "select 1"},
      {"mario_bros", 2, 0x80, "select 5"},
      {"mr_do", 1, 0x80, "select 5"},
      {"star_gunner", 1, 0xF4, "select 15"},
      {"video_chess", 1, 0xEA, "select 1"},
      {"zaxxon", 8, 0x82, "select 10"},
      {"name_this_game", 0x18, 0xDE, "select 2"},
  };
  for (const Case& k : cases) {
    FakeConsole c;
    c.ram[k.address] = uint8_t(k.mode + 1);
    c.react = [&k](FakeConsole& f, const std::string& e) {
      if (e.rfind("select", 0) == 0) f.ram[k.address] = uint8_t(k.mode);
    };
    EXPECT_EQ(run(k.game, k.mode, c), (Events{k.press, "soft_reset"})) << k.game;
    EXPECT_EQ(c.ram_reads, (std::set<uint16_t>{k.address})) << k.game;
  }
}

TEST(GameModes, GamesWithoutSetModeDoNothing) {
  FakeConsole c;
  EXPECT_EQ(run("montezuma_revenge", 0, c), Events{});
  EXPECT_THROW(set_game_mode("montezuma_revenge", 1, c), Error);
  EXPECT_FALSE(find_game_modes("montezuma_revenge")->overrides_set_mode);
}

TEST(GameModes, RomsWithoutSettingsAreUnknown) {
  for (const char* id : {"combat", "joust", "maze_craze", "warlords", "no_such_game"}) {
    EXPECT_EQ(find_game_modes(id), nullptr) << id;
    FakeConsole c;
    EXPECT_EQ(run(id, 0, c), Events{}) << id;
    EXPECT_THROW(set_game_mode(id, 1, c), Error) << id;
  }
}

TEST(GameModes, UnknownModesThrowNamingGameModeAndModes) {
  FakeConsole c;
  try {
    set_game_mode("pong", 5, c);
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("pong"), std::string::npos) << what;
    EXPECT_NE(what.find("5"), std::string::npos) << what;
    EXPECT_NE(what.find("0, 1"), std::string::npos) << what;
  }
  EXPECT_TRUE(c.events.empty());
  for (const auto& [game, mode] : std::vector<std::pair<std::string, int>>{{"bowling", 1},
                                                                           {"air_raid", 0},
                                                                           {"asteroids", 32},
                                                                           {"video_cube", 3},
                                                                           {"video_cube", 5100},
                                                                           {"video_checkers", 10},
                                                                           {"space_war", 5},
                                                                           {"zaxxon", 4}}) {
    EXPECT_THROW(set_game_mode(game, mode, c), Error) << game << " " << mode;
  }
  EXPECT_TRUE(c.events.empty());
}

TEST(GameModes, EndlessSelectionIsAnError) {
  FakeConsole c;
  c.ram[0x96] = 7;  // never becomes 1
  EXPECT_THROW(set_game_mode("pong", 1, c), Error);
  EXPECT_EQ(c.events.size(), 10000u);
}

TEST(GameModes, EveryAlePyRomWithSettingsHasAnEntry) {
  // ale_py.roms.get_all_rom_ids() of ale-py 0.12.1, less combat, joust,
  // maze_craze and warlords (isSupportedROM: no settings).
  const std::vector<std::string> ids = {"adventure",
                                        "air_raid",
                                        "alien",
                                        "amidar",
                                        "assault",
                                        "asterix",
                                        "asteroids",
                                        "atlantis2",
                                        "atlantis",
                                        "backgammon",
                                        "bank_heist",
                                        "basic_math",
                                        "battle_zone",
                                        "beam_rider",
                                        "berzerk",
                                        "blackjack",
                                        "bowling",
                                        "boxing",
                                        "breakout",
                                        "carnival",
                                        "casino",
                                        "centipede",
                                        "chopper_command",
                                        "crazy_climber",
                                        "crossbow",
                                        "darkchambers",
                                        "defender",
                                        "demon_attack",
                                        "donkey_kong",
                                        "double_dunk",
                                        "earthworld",
                                        "elevator_action",
                                        "enduro",
                                        "entombed",
                                        "et",
                                        "fishing_derby",
                                        "flag_capture",
                                        "freeway",
                                        "frogger",
                                        "frostbite",
                                        "galaxian",
                                        "gopher",
                                        "gravitar",
                                        "hangman",
                                        "haunted_house",
                                        "hero",
                                        "human_cannonball",
                                        "ice_hockey",
                                        "jamesbond",
                                        "journey_escape",
                                        "kaboom",
                                        "kangaroo",
                                        "keystone_kapers",
                                        "king_kong",
                                        "klax",
                                        "koolaid",
                                        "krull",
                                        "kung_fu_master",
                                        "laser_gates",
                                        "lost_luggage",
                                        "mario_bros",
                                        "miniature_golf",
                                        "montezuma_revenge",
                                        "mr_do",
                                        "ms_pacman",
                                        "name_this_game",
                                        "othello",
                                        "pacman",
                                        "phoenix",
                                        "pitfall2",
                                        "pitfall",
                                        "pong",
                                        "pooyan",
                                        "private_eye",
                                        "qbert",
                                        "riverraid",
                                        "road_runner",
                                        "robotank",
                                        "seaquest",
                                        "sir_lancelot",
                                        "skiing",
                                        "solaris",
                                        "space_invaders",
                                        "space_war",
                                        "star_gunner",
                                        "superman",
                                        "surround",
                                        "tennis",
                                        "tetris",
                                        "tic_tac_toe_3d",
                                        "time_pilot",
                                        "trondead",
                                        "turmoil",
                                        "tutankham",
                                        "up_n_down",
                                        "venture",
                                        "video_checkers",
                                        "video_chess",
                                        "video_cube",
                                        "video_pinball",
                                        "wizard_of_wor",
                                        "word_zapper",
                                        "yars_revenge",
                                        "zaxxon"};
  ASSERT_EQ(ids.size(), 104u);
  for (const std::string& id : ids) {
    const GameModes* g = find_game_modes(id);
    ASSERT_NE(g, nullptr) << id;
    EXPECT_EQ(id, g->rom_id);
  }
  EXPECT_EQ(all_game_modes().size(), 104u);
}

TEST(GameModes, FactsAreConsistent) {
  int overrides = 0, with_starting_actions = 0;
  for (const GameModes& g : all_game_modes()) {
    ASSERT_FALSE(g.modes.empty()) << g.rom_id;
    EXPECT_EQ(g.default_mode, g.modes.front()) << g.rom_id;
    EXPECT_NE(std::find(g.modes.begin(), g.modes.end(), g.default_mode), g.modes.end()) << g.rom_id;
    EXPECT_FALSE(g.difficulties.empty()) << g.rom_id;
    for (int a : g.starting_actions) {
      EXPECT_TRUE((a >= 0 && a < 18) || a == kAleResetAction) << g.rom_id << " " << a;
    }
    overrides += g.overrides_set_mode;
    with_starting_actions += !g.starting_actions.empty();
    // A game without setMode has the single mode 0.
    if (!g.overrides_set_mode) {
      EXPECT_EQ(g.modes, std::vector<int>{0}) << g.rom_id;
    }
  }
  EXPECT_EQ(overrides, 62);
  EXPECT_EQ(with_starting_actions, 29);
}

TEST(GameModes, SpotChecksOfModesAndDefaults) {
  const GameModes* a = find_game_modes("asteroids");
  ASSERT_EQ(a->modes.size(), 33u);
  EXPECT_EQ(a->modes[31], 31);
  EXPECT_EQ(a->modes[32], 0x80);
  EXPECT_EQ(find_game_modes("berzerk")->modes,
            (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 18}));
  EXPECT_EQ(find_game_modes("defender")->modes, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 16}));
  EXPECT_EQ(find_game_modes("centipede")->modes, (std::vector<int>{0x16, 0x56}));
  const GameModes* cube = find_game_modes("video_cube");
  ASSERT_EQ(cube->modes.size(), 153u);
  EXPECT_EQ(cube->modes[3], 100);
  EXPECT_EQ(cube->modes.back(), 5002);
  EXPECT_EQ(find_game_modes("air_raid")->default_mode, 1);
  EXPECT_EQ(find_game_modes("basic_math")->default_mode, 5);
  EXPECT_EQ(find_game_modes("name_this_game")->default_mode, 0x08);
  EXPECT_EQ(find_game_modes("pooyan")->default_mode, 0x0A);
  EXPECT_EQ(find_game_modes("space_war")->default_mode, 6);
  EXPECT_EQ(find_game_modes("flag_capture")->default_mode, 8);
  EXPECT_EQ(find_game_modes("backgammon")->difficulties, std::vector<int>{3});
  EXPECT_EQ(find_game_modes("galaxian")->difficulties, (std::vector<int>{0, 1}));
  EXPECT_EQ(find_game_modes("time_pilot")->difficulties, (std::vector<int>{0, 1, 2}));
}

TEST(GameModes, SpotChecksOfStartingActions) {
  auto starts = [](const char* id) { return find_game_modes(id)->starting_actions; };
  std::vector<int> casino(60, 0);
  casino.insert(casino.end(), {1, 1});
  EXPECT_EQ(starts("casino"), casino);
  EXPECT_EQ(starts("sir_lancelot"), (std::vector<int>{kAleResetAction, 4}));
  EXPECT_EQ(starts("keystone_kapers"), std::vector<int>{kAleResetAction});
  EXPECT_EQ(starts("laser_gates"), std::vector<int>{kAleResetAction});
  EXPECT_EQ(starts("double_dunk"), std::vector<int>{10});
  EXPECT_EQ(starts("beam_rider"), std::vector<int>{3});
  EXPECT_EQ(starts("skiing"), std::vector<int>(16, 5));
  EXPECT_EQ(starts("gravitar"), std::vector<int>(16, 1));
  EXPECT_EQ(starts("entombed"), (std::vector<int>{1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(starts("klax"), (std::vector<int>{1, 0}));
  std::vector<int> mario(10, 0);
  mario.insert(mario.end(), 7, 1);
  EXPECT_EQ(starts("mario_bros"), mario);
  EXPECT_EQ(starts("darkchambers"), std::vector<int>(486, 0));
  std::vector<int> zapper(486, 0);
  zapper.insert(zapper.end(), {1, 0, 0});
  EXPECT_EQ(starts("word_zapper"), zapper);
  std::vector<int> cube(61, 0);
  cube.insert(cube.end(), {1, 0, 0});
  EXPECT_EQ(starts("video_cube"), cube);
  EXPECT_TRUE(starts("pong").empty());
  EXPECT_TRUE(starts("montezuma_revenge").empty());
}

// --- kernels/game_modes.hpp, called directly ---------------------------------

// The host facts that console and bindings read must be the device's: the
// default mode is the host's own (its first mode); the host's starting
// actions and overrides are expanded from the device functions, which the
// spot checks above and the ALE parity tests pin down.
TEST(GameModes, DeviceFactsEqualTheHostTables) {
  for (const GameModes& g : all_game_modes()) {
    const Game game = game_from_id(g.rom_id);
    EXPECT_EQ(game_default_mode(game), g.default_mode) << g.rom_id;
    EXPECT_EQ(game_overrides_set_mode(game), g.overrides_set_mode) << g.rom_id;
    ASSERT_EQ(game_starting_action_count(game), int(g.starting_actions.size())) << g.rom_id;
    for (int k = 0; k < game_starting_action_count(game); ++k) {
      EXPECT_EQ(game_starting_action(game, k), g.starting_actions[k]) << g.rom_id << " " << k;
    }
    EXPECT_EQ(game_starting_action(game, -1), -1) << g.rom_id;
    EXPECT_EQ(game_starting_action(game, game_starting_action_count(game)), -1) << g.rom_id;
  }
  // Every ALE game of the enum has host facts; the project's games follow
  // ALE's and are found by id.
  EXPECT_EQ(int(all_game_modes().size()), kNumAleGames);
  for (int g = kNumAleGames; g < kNumGames; ++g) {
    const char* id = game_id(Game(g));
    ASSERT_NE(find_game_modes(id), nullptr) << id;
    EXPECT_EQ(game_starting_action_count(Game(g)),
              int(find_game_modes(id)->starting_actions.size()));
  }
  EXPECT_EQ(game_starting_action_count(Game::count), 0);
  EXPECT_EQ(game_default_mode(Game::count), 0);
  EXPECT_FALSE(game_overrides_set_mode(Game::count));
}

// A console for game_set_mode without virtual calls, as a device would give:
// RAM as an array; every call, reads included, is logged in order. `press`
// and `act_step` say what a press of SELECT or an act does to RAM.
struct ScriptedCtx {
  uint8_t ram[128] = {};
  uint8_t mapped_byte = 0;
  Events log;
  std::function<void(ScriptedCtx&)> on_press;
  std::function<void(ScriptedCtx&, int)> on_act;

  uint8_t& at(uint16_t address) { return ram[address & 0x7F]; }
  uint8_t read_ram(uint16_t address) {
    log.push_back("read " + std::to_string(address));
    return at(address);
  }
  uint8_t read_mapped(uint16_t address) {
    log.push_back("mapped " + std::to_string(address));
    return mapped_byte;
  }
  void press_select(int frames) {
    log.push_back("select " + std::to_string(frames));
    if (on_press) on_press(*this);
  }
  void soft_reset() { log.push_back("soft_reset"); }
  void act(int action) {
    log.push_back("act " + std::to_string(action));
    if (on_act) on_act(*this, action);
  }
  uint32_t env_rng_next() {
    log.push_back("rng");
    return 0;
  }
};

TEST(GameModes, SelectByteGameReadsThenPressesUntilTheByteMatches) {
  // Tennis: 2-frame presses until 0x80 equals the mode; each press here adds
  // one, so a byte N below the mode takes N presses, each after a read.
  for (int mode : {0, 2}) {
    for (int presses : {0, 1, 5}) {
      ScriptedCtx c;
      c.at(0x80) = uint8_t(mode - presses);
      c.on_press = [](ScriptedCtx& f) { f.at(0x80)++; };
      Events expected;
      for (int i = 0; i < presses; ++i) {
        expected.push_back("read 128");
        expected.push_back("select 2");
      }
      expected.push_back("read 128");
      expected.push_back("soft_reset");
      EXPECT_EQ(game_set_mode(Game::tennis, mode, c), ModeStatus::ok);
      EXPECT_EQ(c.log, expected) << mode << " " << presses;
    }
  }
}

TEST(GameModes, DoubleDunkSequenceFollowsItsMenuRules) {
  // The menu: a DOWN act moves the cursor 0xB0 down one entry; entries 2-5
  // are the options with bits 0x08, 0x10, 0x04, 0x20 of 0x80; RIGHT sets the
  // entry's bit, LEFT clears it. Mode bit i turns option i on.
  static const uint8_t kBits[6] = {0, 0, 0x08, 0x10, 0x04, 0x20};
  for (int mode = 0; mode < 16; ++mode) {
    for (uint8_t initial : {uint8_t(0x00), uint8_t(0x3C), uint8_t(0x18)}) {
      ScriptedCtx c;
      c.at(0x80) = initial;
      c.on_act = [](ScriptedCtx& f, int action) {
        const uint8_t bit = kBits[std::min<int>(f.at(0xB0), 5)];
        if (action == 5) f.at(0xB0)++;
        if (action == 3) f.at(0x80) |= bit;
        if (action == 4) f.at(0x80) &= uint8_t(~bit);
      };
      c.log.reserve(64);
      ASSERT_EQ(game_set_mode(Game::double_dunk, mode, c), ModeStatus::ok);
      // The expected calls, reads left out.
      Events expected = {"select 1"};
      for (int entry = 2; entry <= 5; ++entry) {
        // Down from the previous entry (twice to reach the first option).
        for (int d = entry == 2 ? 2 : 1; d > 0; --d) {
          expected.push_back("act 5");
          expected.push_back("act 0");
        }
        const bool on = mode & (1 << (entry - 2));
        const bool is_on = initial & kBits[entry];
        if (on != is_on) {
          expected.push_back(on ? "act 3" : "act 4");
          expected.push_back("act 0");
        }
      }
      expected.insert(expected.end(), {"soft_reset", "act 10", "act 0"});
      Events calls;
      for (const std::string& e : c.log) {
        if (e.rfind("read", 0) != 0) calls.push_back(e);
      }
      EXPECT_EQ(calls, expected) << mode << " " << int(initial);
      uint8_t bits = 0;
      for (int i = 0; i < 4; ++i) bits |= (mode >> i & 1) ? kBits[2 + i] : 0;
      EXPECT_EQ(c.at(0x80) & 0x3C, bits) << mode;
    }
  }
}

TEST(GameModes, VideoCubeSequenceFollowsItsRules) {
  // Mode = cube * 100 + variant; variant 0, 1, 2 is game 1, 3, 9, stored minus
  // one in 0xFB's low bits (here each press adds one, from 0); after the soft
  // reset RIGHT moves the BCD cube 0x9F (here from 1) up to the mode's cube,
  // which is 1 below mode 100.
  for (int mode : {0, 1, 2, 100, 202, 901, 1000, 5002}) {
    ScriptedCtx c;
    c.at(0xFB) = 0xE0;  // the upper bits are not part of the game
    c.at(0x9F) = 0x01;
    c.on_press = [](ScriptedCtx& f) { f.at(0xFB)++; };
    c.on_act = [](ScriptedCtx& f, int action) {
      if (action != 3) return;
      uint8_t& cube = f.at(0x9F);
      cube = (cube & 0x0F) == 9 ? uint8_t((cube & 0xF0) + 0x10) : uint8_t(cube + 1);
    };
    const int games[3] = {1, 3, 9};
    const int cube = mode >= 100 ? mode / 100 : 1;
    Events expected(games[mode % 100] - 1, "select 2");
    expected.push_back("soft_reset");
    expected.insert(expected.end(), cube - 1, "act 3");
    EXPECT_EQ(game_set_mode(Game::video_cube, mode, c), ModeStatus::ok);
    Events calls;
    for (const std::string& e : c.log) {
      if (e.rfind("read", 0) != 0) calls.push_back(e);
    }
    EXPECT_EQ(calls, expected) << mode;
  }
}

TEST(GameModes, StatusesOfLoopsThatDoNotEnd) {
  // A byte that never matches: 10000 presses, then not_reached.
  ScriptedCtx pong;
  pong.at(0x96) = 7;
  EXPECT_EQ(game_set_mode(Game::pong, 1, pong), ModeStatus::not_reached);
  EXPECT_EQ(std::count(pong.log.begin(), pong.log.end(), "select 2"), kModeMaxRounds);
  EXPECT_EQ(std::count(pong.log.begin(), pong.log.end(), "soft_reset"), 0);
  // E.T. stops after 100 presses: gave_up, and no soft reset.
  ScriptedCtx et;
  EXPECT_EQ(game_set_mode(Game::et, 1, et), ModeStatus::gave_up);
  EXPECT_EQ(std::count(et.log.begin(), et.log.end(), "select 25"), kEtModeMaxPresses);
  EXPECT_EQ(std::count(et.log.begin(), et.log.end(), "soft_reset"), 0);
  // A game without setMode, and no game at all, make no call.
  ScriptedCtx none;
  EXPECT_EQ(game_set_mode(Game::montezuma_revenge, 0, none), ModeStatus::ok);
  EXPECT_EQ(game_set_mode(Game::count, 0, none), ModeStatus::ok);
  EXPECT_TRUE(none.log.empty());
}

TEST(GameModes, GameSetModeCallsTheConsoleExactlyForTheOverridingGames) {
  // RAM of zeros, which no press changes: a game with setMode makes calls
  // (at least its soft reset, or its loop's rounds); one without makes none.
  for (int i = 0; i < kNumGames; ++i) {
    const Game game = static_cast<Game>(i);
    ScriptedCtx c;
    game_set_mode(game, game_default_mode(game), c);
    EXPECT_EQ(game_overrides_set_mode(game), !c.log.empty()) << game_id(game);
  }
}

}  // namespace
}  // namespace cule
