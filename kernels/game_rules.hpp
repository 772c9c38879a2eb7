// Per-game reward, terminal and lives bookkeeping, as ALE's game settings
// (ALE v0.12.1, src/ale/games/supported/*) compute them after every frame.
//
//   GameRuleState s;
//   game_rules_init(s);                        // a fresh settings object
//   game_rules_reset(game, s);                 // RomSettings::reset
//   game_rules_step(game, s, ram);             // RomSettings::step, once a frame
//   game_rules_reward(s); game_rules_terminal(s); game_rules_lives(game, s);
//
// `ram` is the console's 128 bytes of RIOT RAM (index = address - 0x80). Klax
// alone also reads its cartridge RAM (ALE's readMappedRam of the F6SC read
// port 0xF080-0xF0FF): pass those 128 bytes as `cart_ram`; every other game
// ignores it (nullptr is fine).
//
// ALE's quirks are kept on purpose, since they are what agents see: scores
// that wrap (Asteroids, Galaxian, Space Invaders add the wrap back, others
// return a large negative reward), fields reset() does not clear (Video
// Cube's timer history carries across episodes), latches (Chopper Command,
// Breakout and Star Gunner wait for a "started" byte), lives read from RAM
// with each game's own offset, and lives() reporting 0 once terminal.
#pragma once

#include <cstdint>

#include "kernels/hd.hpp"

namespace cule {

//! The games ALE has settings for, named after their ale-py ids, then the
//! project's own games (roms/*.asm; not ALE's, so not in cule.list_games()).
enum class Game : uint16_t {
  adventure,
  air_raid,
  alien,
  amidar,
  assault,
  asterix,
  asteroids,
  atlantis,
  atlantis2,
  backgammon,
  bank_heist,
  basic_math,
  battle_zone,
  beam_rider,
  berzerk,
  blackjack,
  bowling,
  boxing,
  breakout,
  carnival,
  casino,
  centipede,
  chopper_command,
  crazy_climber,
  crossbow,
  darkchambers,
  defender,
  demon_attack,
  donkey_kong,
  double_dunk,
  earthworld,
  elevator_action,
  enduro,
  entombed,
  et,
  fishing_derby,
  flag_capture,
  freeway,
  frogger,
  frostbite,
  galaxian,
  gopher,
  gravitar,
  hangman,
  haunted_house,
  hero,
  human_cannonball,
  ice_hockey,
  jamesbond,
  journey_escape,
  kaboom,
  kangaroo,
  keystone_kapers,
  king_kong,
  klax,
  koolaid,
  krull,
  kung_fu_master,
  laser_gates,
  lost_luggage,
  mario_bros,
  miniature_golf,
  montezuma_revenge,
  mr_do,
  ms_pacman,
  name_this_game,
  othello,
  pacman,
  phoenix,
  pitfall,
  pitfall2,
  pong,
  pooyan,
  private_eye,
  qbert,
  riverraid,
  road_runner,
  robotank,
  seaquest,
  sir_lancelot,
  skiing,
  solaris,
  space_invaders,
  space_war,
  star_gunner,
  superman,
  surround,
  tennis,
  tetris,
  tic_tac_toe_3d,
  time_pilot,
  trondead,
  turmoil,
  tutankham,
  up_n_down,
  venture,
  video_checkers,
  video_chess,
  video_cube,
  video_pinball,
  wizard_of_wor,
  word_zapper,
  yars_revenge,
  zaxxon,
  catch_game,  //!< roms/catch.asm, id "catch"
  count        //!< not a game: the number of games
};

constexpr int kNumGames = static_cast<int>(Game::count);
//! ALE's games are the first kNumAleGames; the project's follow.
constexpr int kNumAleGames = static_cast<int>(Game::catch_game);

//! What one game's settings object keeps between frames. `score` and `lives`
//! are the settings' own fields (lives as stored, before lives() turns it to
//! 0 on terminal); `flag` and `aux` hold a game's extra fields (see the
//! step function for each game's use).
struct GameRuleState {
  int32_t score;
  int32_t reward;
  int32_t lives;
  uint8_t terminal;
  uint8_t flag;
  uint8_t pad[2];
  int32_t aux[5];
};

namespace game_rules_detail {

// ALE's getDecimalScore over one, two or three BCD bytes (low byte first).
// The nibbles are not checked, so a nibble above 9 weighs in as is.
template <class Ram>
CULE_HD inline int bcd(const Ram& ram, int address) {
  const int v = ram[address & 0x7F];
  return 10 * (v >> 4) + (v & 15);
}
template <class Ram>
CULE_HD inline int bcd2(const Ram& ram, int lo, int hi) {
  return bcd(ram, lo) + 100 * bcd(ram, hi);
}
template <class Ram>
CULE_HD inline int bcd3(const Ram& ram, int lo, int mid, int hi) {
  return bcd2(ram, lo, mid) + 10000 * bcd(ram, hi);
}
template <class Ram>
CULE_HD inline int rd(const Ram& ram, int address) {
  return ram[address & 0x7F];
}

// The usual pattern: the reward is the score's change.
CULE_HD inline void score_to(GameRuleState& s, int score) {
  s.reward = score - s.score;
  s.score = score;
}

// A digit stored in the low nibble, with 0xA standing for a blank (0).
template <class Ram>
CULE_HD inline int nibble_digit(const Ram& ram, int address) {
  const int v = rd(ram, address) & 0xF;
  return v == 0xA ? 0 : v;
}

// Backgammon: a point's byte as a signed count (player pieces negative).
template <class Ram>
CULE_HD inline int8_t pieces(const Ram& ram, int address) {
  return static_cast<int8_t>(rd(ram, address));
}

// Video Checkers: counts a square's piece.
CULE_HD inline void count_checker(int state, int& black, int& white) {
  if (state == 0x10 || state == 0x20) ++black;
  if (state == 0x90 || state == 0xA0) ++white;
}

}  // namespace game_rules_detail

//! The state of a settings object just built: ALE's constructors call
//! reset(); fields reset() leaves alone start at 0 here (ALE leaves Video
//! Cube's timer history uninitialised; it is overwritten by the first two
//! steps of the reset that follows loadROM).
CULE_HD inline void game_rules_init(GameRuleState& s) { s = GameRuleState{}; }

//! RomSettings::reset: what each game's reset() clears. Fields it does not
//! clear (Video Cube's timer history) keep their values.
CULE_HD CULE_DEVICE_NOINLINE void game_rules_reset(Game game, GameRuleState& s) {
  s.reward = 0;
  s.score = 0;
  s.terminal = 0;
  s.flag = 0;
  int32_t lives = 0;
  switch (game) {
    case Game::alien: lives = 3; break;
    case Game::amidar: lives = 3; break;
    case Game::assault: lives = 4; break;
    case Game::asterix: lives = 3; break;
    case Game::asteroids: lives = 4; break;
    case Game::atlantis: lives = 6; break;
    case Game::bank_heist: lives = 5; break;
    case Game::battle_zone: lives = 5; break;
    case Game::beam_rider: lives = 3; break;
    case Game::berzerk: lives = 3; break;
    case Game::breakout: lives = 5; break;
    case Game::centipede: lives = 3; break;
    case Game::chopper_command: lives = 3; break;
    case Game::crazy_climber: lives = 5; break;
    case Game::darkchambers:
      s.aux[0] = 0;  // level
      s.aux[1] = 0;  // health
      break;
    case Game::defender: lives = 3; break;
    case Game::demon_attack: lives = 4; break;
    case Game::donkey_kong: lives = 2; break;
    case Game::elevator_action: lives = 4; break;
    case Game::frogger: lives = 4; break;
    case Game::frostbite: lives = 4; break;
    case Game::galaxian: lives = 3; break;
    case Game::gopher: lives = 3; break;
    case Game::gravitar: lives = 6; break;
    case Game::hangman:
      s.aux[0] = 0;   // computer score
      s.aux[1] = 0;   // player score
      s.aux[2] = -1;  // timer, this frame
      s.aux[3] = -1;  // timer, the frame before
      break;
    case Game::haunted_house:
      lives = 9;
      s.aux[0] = 0;  // matches
      break;
    case Game::hero: lives = 4; break;
    case Game::human_cannonball: s.aux[0] = 0; break;  // misses
    case Game::jamesbond: lives = 6; break;
    case Game::kangaroo: lives = 3; break;
    case Game::keystone_kapers: lives = 3; break;
    case Game::king_kong: lives = 3; break;
    case Game::krull: lives = 3; break;
    case Game::kung_fu_master: lives = 4; break;
    case Game::lost_luggage: lives = 3; break;
    case Game::miniature_golf:
      for (int i = 0; i < 5; ++i) s.aux[i] = 0;
      break;
    case Game::montezuma_revenge: lives = 6; break;
    case Game::mr_do: lives = 4; break;
    case Game::ms_pacman: lives = 3; break;
    case Game::name_this_game: lives = 3; break;
    case Game::othello: s.aux[0] = 0; break;  // frames without input
    case Game::pacman: lives = 4; break;
    case Game::phoenix: lives = 5; break;
    case Game::pitfall:
      lives = 3;
      s.score = 2000;
      break;
    case Game::pitfall2:
      lives = 1;
      s.score = 4000;
      break;
    case Game::pooyan: lives = 3; break;
    case Game::private_eye: s.score = 1000; break;
    case Game::qbert:
      lives = 4;
      s.aux[0] = 2;  // lives byte last seen
      break;
    case Game::riverraid: s.aux[0] = 0x58; break;  // lives byte last seen
    case Game::road_runner: lives = 3; break;
    case Game::robotank: lives = 4; break;
    case Game::seaquest: lives = 4; break;
    case Game::sir_lancelot: lives = 3; break;
    case Game::solaris: lives = 3; break;
    case Game::space_invaders: lives = 3; break;
    case Game::star_gunner: lives = 5; break;
    case Game::tennis:
      s.aux[0] = 0;  // previous point difference
      s.aux[1] = 0;  // previous game difference
      break;
    case Game::time_pilot: lives = 5; break;
    case Game::trondead: lives = 5; break;
    case Game::turmoil: lives = 4; break;
    case Game::tutankham: lives = 3; break;
    case Game::up_n_down: lives = 5; break;
    case Game::venture: lives = 4; break;
    case Game::video_checkers: s.flag = uint8_t(s.aux[4]); break;  // set by setMode
    case Game::video_chess: lives = 1; break;
    case Game::video_cube: s.aux[2] = 0; break;  // complete faces; timer kept
    case Game::video_pinball: lives = 3; break;
    case Game::wizard_of_wor: lives = 3; break;
    case Game::yars_revenge: lives = 4; break;
    case Game::zaxxon: lives = 5; break;
    default: break;
  }
  // Settings without a lives field of their own keep whatever lives() says.
  s.lives = lives;
}

//! What a game's setMode does to its settings (beyond selecting the mode on
//! the console). ALE runs it after reset(), before setMode's last soft reset.
//! Demon Attack flags a level change, which masks its terminal test for one
//! step; Video Checkers' modes from 11 on are the reversed game (rewards
//! flip). Alien and Gravitar set lives there, which step() overwrites.
CULE_HD CULE_DEVICE_NOINLINE void game_rules_set_mode(Game game, GameRuleState& s, int mode) {
  if (game == Game::demon_attack) s.flag = 1;
  if (game == Game::video_checkers) {
    s.aux[4] = mode >= 11;
    s.flag = uint8_t(s.aux[4]);
  }
}

//! RomSettings::step after one emulated frame, reading RIOT RAM as
//! `ram[i]` (a byte pointer, or a type that also notes the reads:
//! WatchedRam).
template <class Ram>
CULE_HD CULE_DEVICE_NOINLINE void game_rules_step(Game game, GameRuleState& s, Ram ram,
                                                  const uint8_t* cart_ram = nullptr) {
  using namespace game_rules_detail;
  switch (game) {
    case Game::adventure: {
      const bool chalice_home = rd(ram, 0xB9) == 0x12;
      // The reward is only ever set, never cleared: it stays 1 until reset.
      if (chalice_home) s.reward = 1;
      s.terminal = rd(ram, 0xE0) == 2 || chalice_home;
      break;
    }
    case Game::air_raid:
      score_to(s, bcd3(ram, 0xAA, 0xA9, 0xA8));
      s.terminal = rd(ram, 0xA7) == 0xFF;
      break;
    case Game::alien: {
      int score = 0;
      const int digits[5] = {0x8B, 0x89, 0x87, 0x85, 0x83};
      int weight = 1;
      for (int address : digits) {
        const int v = rd(ram, address);
        score += weight * (v == 0x80 ? 0 : v >> 3);
        weight *= 10;
      }
      score_to(s, score * 10);
      s.lives = rd(ram, 0xC0) & 15;
      s.terminal = s.lives <= 0;
      break;
    }
    case Game::amidar: {
      score_to(s, bcd3(ram, 0xD9, 0xDA, 0xDB));
      const int byte = rd(ram, 0xD6);
      s.terminal = byte == 0x80;
      s.lives = byte & 0xF;
      break;
    }
    case Game::assault:
      score_to(s, bcd3(ram, 0x82, 0x81, 0x80));
      s.lives = rd(ram, 0xE5);
      s.terminal = s.lives == 0;
      break;
    case Game::asterix:
      score_to(s, bcd3(ram, 0xE0, 0xDF, 0xDE));
      s.lives = rd(ram, 0xD3) & 0xF;
      s.terminal = rd(ram, 0xC7) == 0x01 && s.lives == 1;
      break;
    case Game::asteroids: {
      const int score = bcd2(ram, 0xBE, 0xBD) * 10;
      s.reward = score - s.score;
      // The counter wraps at 100,000; the wrap is added back.
      if (s.reward < 0) s.reward += 100000;
      s.score = score;
      s.lives = rd(ram, 0xBC) >> 4;
      s.terminal = s.lives == 0;
      break;
    }
    case Game::atlantis: {
      const int score = bcd3(ram, 0xA2, 0xA3, 0xA1) * 100;
      const int old_score = s.score;
      score_to(s, score);
      s.lives = rd(ram, 0xF1);
      s.terminal = s.lives == 0xFF;
      if (s.terminal) {
        s.reward = 0;
        s.score = old_score;
      }
      break;
    }
    case Game::atlantis2:
      s.lives = rd(ram, 0xF1);
      s.terminal = s.lives == 0xFF;
      if (s.terminal) {
        s.reward = 0;
      } else {
        score_to(s, bcd3(ram, 0xA1, 0xA2, 0xA3));
      }
      break;
    case Game::backgammon: {
      // 8-bit counters, as ALE keeps them.
      const int8_t player_out = int8_t(-pieces(ram, 0x80));
      const int8_t computer_out = pieces(ram, 0x8E);
      int8_t player_in = 0, computer_in = 0;
      for (int address = 0x81; address <= 0x9B; ++address) {
        if (address == 0x8E) continue;
        const int8_t p = pieces(ram, address);
        if (p > 0) computer_in = int8_t(computer_in + p);
        if (p < 0) player_in = int8_t(player_in - p);
      }
      if (computer_in + computer_out == 15 && player_in + player_out == 15) {
        if (player_out == 15) {
          s.terminal = 1;
          s.reward = 1;
        } else if (computer_out == 15) {
          s.terminal = 1;
          s.reward = -1;
        }
      }
      break;
    }
    case Game::bank_heist:
      score_to(s, bcd3(ram, 0xDA, 0xD9, 0xD8));
      s.lives = rd(ram, 0xD5);
      s.terminal = rd(ram, 0xCE) == 0x01 && s.lives == 0;
      break;
    case Game::basic_math:
      score_to(s, bcd(ram, 0x84));
      s.terminal = bcd(ram, 0x86) != 0;
      break;
    case Game::battle_zone: {
      const int first = rd(ram, 0x9D), second = rd(ram, 0x9E);
      // 0xA is a blank digit.
      auto digit = [](int d) { return d == 10 ? 0 : d; };
      const int score = digit(first >> 4) + 10 * digit(second & 15) + 100 * digit(second >> 4);
      score_to(s, score * 1000);
      s.lives = rd(ram, 0xBA) & 0xF;
      s.terminal = s.lives == 0;
      break;
    }
    case Game::beam_rider: {
      score_to(s, bcd3(ram, 0x89, 0x8A, 0x8B));
      const int new_lives = rd(ram, 0x85) + 1;
      // A lost life only counts once the death sequence flag is up.
      if (new_lives == s.lives - 1) {
        if (rd(ram, 0x8C) == 0x01) s.lives = new_lives;
      } else {
        s.lives = new_lives;
      }
      s.terminal = rd(ram, 0x85) == 255;
      break;
    }
    case Game::berzerk: {
      score_to(s, bcd3(ram, 0xDF, 0xDE, 0xDD));
      const int byte = rd(ram, 0xDA);
      s.terminal = byte == 0xFF;
      s.lives = byte + 1;
      break;
    }
    case Game::blackjack: {
      const bool bust = rd(ram, 0x86) == 0x0B && rd(ram, 0x89) == 0xBB;
      const int score = bust ? 0 : bcd2(ram, 0x89, 0x86);
      score_to(s, score);
      s.terminal = bust || score >= 1000;
      break;
    }
    case Game::bowling:
      score_to(s, bcd2(ram, 0xA1, 0xA6));
      s.terminal = rd(ram, 0xA4) > 0x10;
      break;
    case Game::boxing: {
      const int mine = rd(ram, 0x92) == 0xC0 ? 100 : bcd(ram, 0x92);
      const int theirs = rd(ram, 0x93) == 0xC0 ? 100 : bcd(ram, 0x93);
      score_to(s, mine - theirs);
      if (mine == 100 || theirs == 100) {
        s.terminal = 1;
      } else {
        const int minutes = rd(ram, 0x90) >> 4;
        const int seconds = (rd(ram, 0x91) & 0xF) + (rd(ram, 0x91) >> 4) * 10;
        s.terminal = minutes == 0 && seconds == 0;
      }
      break;
    }
    case Game::breakout: {
      const int x = rd(ram, 0xCD), y = rd(ram, 0xCC);
      score_to(s, (x & 0xF) + 10 * (x >> 4) + 100 * (y & 0xF));
      const int byte = rd(ram, 0xB9);
      // Terminal only after the lives byte has shown 5 once.
      if (byte == 5) s.flag = 1;
      s.terminal = s.flag && byte == 0;
      s.lives = byte;
      break;
    }
    case Game::carnival:
      score_to(s, bcd2(ram, 0xAE, 0xAD) * 10);
      s.terminal = rd(ram, 0x83) < 1;
      break;
    case Game::casino: {
      const int score = bcd2(ram, 0x95, 0x8C);
      if (rd(ram, 0xD4) == 3) {
        s.reward = score - s.score;
        s.terminal = score > 0 && rd(ram, 0x9E) == 0xAA;
      } else {
        const bool input_disabled = rd(ram, 0xD3) & 0x80;
        // While input is disabled the last reward stays.
        if (!input_disabled) s.reward = score - s.score;
        s.terminal = score == 0 || (bcd(ram, 0x9E) > 0 && input_disabled);
      }
      s.score = score;
      break;
    }
    case Game::centipede:
      score_to(s, bcd3(ram, 0xF6, 0xF5, 0xF4));
      if (s.reward < 0) s.reward = 0;
      s.lives = ((rd(ram, 0xED) >> 4) & 0x7) + 1;
      s.terminal = (rd(ram, 0xA6) & 0x40) != 0;
      break;
    case Game::chopper_command: {
      score_to(s, bcd2(ram, 0xEE, 0xEC) * 100);
      s.lives = rd(ram, 0xE4) & 0xF;
      // Terminal needs the chopper to have faced right once (game started).
      s.flag |= rd(ram, 0xC2) & 1;
      s.terminal = s.flag && s.lives == 0;
      break;
    }
    case Game::crazy_climber: {
      const int score =
          rd(ram, 0x82) + 10 * rd(ram, 0x83) + 100 * rd(ram, 0x84) + 1000 * rd(ram, 0x85);
      score_to(s, score * 100);
      if (s.reward < 0) s.reward = 0;
      s.lives = rd(ram, 0xAA);
      s.terminal = s.lives == 0;
      break;
    }
    case Game::crossbow:
      score_to(s, bcd3(ram, 0x8D, 0x8C, 0x8B));
      s.terminal = rd(ram, 0xE7) == 0x82;
      break;
    case Game::darkchambers: {
      // aux[0]: level, aux[1]: health. Terminal latches until reset.
      s.reward = 0;
      const int level = rd(ram, 0xD5);
      if (level < s.aux[0]) {
        s.terminal = 1;
      } else {
        s.aux[0] = level;
        const int score = bcd2(ram, 0xCC, 0xCF) * 10;
        if (score < s.score) {
          s.terminal = 1;
        } else {
          score_to(s, score);
        }
        s.aux[1] = rd(ram, 0xCA) & 0x1F;
        if (s.aux[1] == 0) s.terminal = 1;
      }
      break;
    }
    case Game::defender: {
      int score = 0, weight = 1;
      for (int i = 0; i < 6; ++i, weight *= 10) score += weight * nibble_digit(ram, 0x9C + i);
      score_to(s, score);
      s.lives = rd(ram, 0xC2);
      s.terminal = s.lives == 0;
      break;
    }
    case Game::demon_attack: {
      int score = bcd3(ram, 0x85, 0x83, 0x81);
      // The attract mode's pattern in the score bytes reads as 0.
      if (rd(ram, 0x81) == 0xAB && rd(ram, 0x83) == 0xCD && rd(ram, 0x85) == 0xEA) score = 0;
      score_to(s, score);
      const int shown = rd(ram, 0xF2);
      // flag: setMode's level change, which masks one terminal test.
      s.terminal = shown == 0 && rd(ram, 0xF1) == 0xBD && !s.flag;
      s.lives = shown + 1;
      s.flag = 0;
      break;
    }
    case Game::donkey_kong:
      score_to(s, bcd2(ram, 0x88, 0x87) * 100);
      s.lives = rd(ram, 0xA3);
      s.terminal = s.lives == 0 && rd(ram, 0x8F) == 0x03 && rd(ram, 0x8B) == 0x1F;
      break;
    case Game::double_dunk: {
      const int mine = bcd(ram, 0xF6), theirs = bcd(ram, 0xF7);
      score_to(s, mine - theirs);
      s.terminal = (mine >= 24 || theirs >= 24) && rd(ram, 0xFE) == 0xE7;
      break;
    }
    case Game::earthworld: {
      const int score = bcd(ram, 0xA7);
      score_to(s, score);
      s.terminal = score == 10;
      break;
    }
    case Game::elevator_action:
      score_to(s, bcd3(ram, 0x89, 0x88, 0x87));
      s.lives = rd(ram, 0x83);
      s.terminal = s.lives == 0 && rd(ram, 0x81) != 0;
      break;
    case Game::enduro: {
      int score = 0;
      const int level = rd(ram, 0xAD);
      if (level != 0) {
        int cars = bcd2(ram, 0xAB, 0xAC);
        cars = (level == 1 ? 200 : 300) - cars;
        if (level >= 2) score = 200 + (level - 2) * 300;
        score += cars;
      }
      score_to(s, score);
      s.terminal = rd(ram, 0xAF) == 0xFF;
      break;
    }
    case Game::entombed:
      score_to(s, rd(ram, 0xE3));
      s.terminal = (rd(ram, 0xC7) & 0x03) == 0;
      break;
    case Game::et:
      score_to(s, bcd3(ram, 0xE1, 0xE0, 0xDF));
      // ALE keeps E.T.'s lives in a char: 0xFF + 1 wraps to 0.
      s.lives = int8_t(rd(ram, 0xE5) + 1);
      s.terminal = s.lives == 0 && rd(ram, 0x80) == 8;
      break;
    case Game::fishing_derby: {
      const int mine = bcd(ram, 0xBD), theirs = bcd(ram, 0xBE);
      score_to(s, mine - theirs);
      s.terminal = rd(ram, 0xBD) == 0x99 || rd(ram, 0xBE) == 0x99;
      break;
    }
    case Game::flag_capture:
      score_to(s, bcd(ram, 0xEA));
      s.terminal = bcd(ram, 0xEB) == 0;
      break;
    case Game::freeway: {
      const int score = bcd(ram, 0xE7);
      int reward = score - s.score;
      // Clamped to 0..1 per frame.
      reward = reward < 0 ? 0 : (reward > 1 ? 1 : reward);
      s.reward = reward;
      s.score = score;
      s.terminal = rd(ram, 0x96) == 1;
      break;
    }
    case Game::frogger:
      score_to(s, bcd2(ram, 0xCE, 0xCC));
      s.lives = rd(ram, 0xD0);
      s.terminal = rd(ram, 0xD0) == 0xFF;
      break;
    case Game::frostbite: {
      score_to(s, bcd3(ram, 0xCA, 0xC9, 0xC8));
      const int byte = rd(ram, 0xCC) & 0xF;
      s.terminal = byte == 0 && (rd(ram, 0xF1) & 0x80) != 0;
      s.lives = byte + 1;
      break;
    }
    case Game::galaxian: {
      const int score = bcd3(ram, 0xAE, 0xAD, 0xAC);
      s.reward = score - s.score;
      // The counter wraps at 1,000,000; the wrap is added back.
      if (s.reward < 0) s.reward = (1000000 - s.score) + score;
      s.score = score;
      s.terminal = (rd(ram, 0xBF) & 0x80) != 0;
      s.lives = s.terminal ? 0 : rd(ram, 0xB9) + 1;
      break;
    }
    case Game::gopher: {
      score_to(s, bcd3(ram, 0xB2, 0xB1, 0xB0));
      const int carrots = rd(ram, 0xB4) & 0x7;
      s.terminal = carrots == 0;
      s.lives = (carrots & 1) + ((carrots >> 1) & 1) + ((carrots >> 2) & 1);
      break;
    }
    case Game::gravitar: {
      score_to(s, bcd3(ram, 0x89, 0x88, 0x87));
      const int screen = rd(ram, 0x81);
      s.terminal = screen == 0x01;
      s.lives = screen == 0 ? 6 : rd(ram, 0x84) + 1;
      break;
    }
    case Game::hangman: {
      // aux[0]/[1]: computer/player score; aux[2]/[3]: timer now/before.
      const int computer = bcd(ram, 0xEC), player = bcd(ram, 0xEB);
      s.reward = (player - s.aux[1]) - (computer - s.aux[0]);
      s.aux[0] = computer;
      s.aux[1] = player;
      s.aux[3] = s.aux[2];
      s.aux[2] = rd(ram, 0xF1);
      const bool timed_out = s.aux[2] == 0 && s.aux[3] == 255;
      s.terminal = s.reward != 0 || timed_out;
      break;
    }
    case Game::haunted_house: {
      s.reward = 0;
      const int matches = bcd(ram, 0x82);
      if (matches != s.aux[0]) {
        --s.reward;
        s.aux[0] = matches;
      }
      s.lives = rd(ram, 0x96);
      const bool escaped = rd(ram, 0x99) == 0x44;
      if (escaped) s.reward += 100;
      s.terminal = s.lives == 0 || escaped;
      break;
    }
    case Game::hero:
      score_to(s, bcd3(ram, 0xB9, 0xB8, 0xB7));
      s.lives = rd(ram, 0xB3);
      s.terminal = s.lives == 0;
      break;
    case Game::human_cannonball: {
      const int score = bcd(ram, 0xB6);
      score_to(s, score);
      s.aux[0] = bcd(ram, 0xB7);
      s.terminal = score == 7 || s.aux[0] == 7;
      break;
    }
    case Game::ice_hockey: {
      const int score = bcd(ram, 0x8A) - bcd(ram, 0x8B);
      const int reward = score - s.score;
      // Capped at +1 per frame (not below).
      s.reward = reward < 1 ? reward : 1;
      s.score = score;
      s.terminal = rd(ram, 0x87) == 0 && rd(ram, 0x86) == 0;
      break;
    }
    case Game::jamesbond: {
      score_to(s, bcd3(ram, 0xDC, 0xDD, 0xDE));
      const int byte = rd(ram, 0x86) & 0xF;
      s.terminal = byte == 0 && rd(ram, 0x8C) == 0x68;
      s.lives = byte + 1;
      break;
    }
    case Game::journey_escape: {
      const int score = bcd3(ram, 0x92, 0x91, 0x90);
      int reward = score - s.score;
      // The 50,000 the game starts by crediting is not a reward.
      if (reward == 50000) reward = 0;
      s.reward = reward;
      s.score = score;
      s.terminal = rd(ram, 0x95) == 0 && rd(ram, 0x96) == 0;
      break;
    }
    case Game::kaboom:
      score_to(s, bcd3(ram, 0xA5, 0xA4, 0xA3));
      s.terminal = rd(ram, 0xA1) == 0 || s.score == 999999;
      break;
    case Game::kangaroo: {
      score_to(s, bcd2(ram, 0xA8, 0xA7) * 100);
      const int byte = rd(ram, 0xAD);
      s.terminal = byte == 0xFF;
      s.lives = (byte & 0x7) + 1;
      break;
    }
    case Game::keystone_kapers:
      score_to(s, bcd2(ram, 0x9C, 0x9B));
      s.lives = rd(ram, 0x96);
      s.terminal = s.lives == 0 && rd(ram, 0x88) == 0;
      break;
    case Game::king_kong:
      score_to(s, bcd2(ram, 0x83, 0x82));
      s.lives = rd(ram, 0xEE);
      s.terminal = s.lives == 0;
      break;
    case Game::klax: {
      // Score, misses and level live in the cartridge's RAM.
      if (!cart_ram) break;
      auto cbcd = [cart_ram](int address) {
        const int v = cart_ram[address & 0x7F];
        return 10 * (v >> 4) + (v & 15);
      };
      score_to(s, cbcd(0xF0B4) + 100 * cbcd(0xF0B5) + 10000 * cbcd(0xF0B6));
      const int misses = cart_ram[0xF0EE & 0x7F];
      const int max_misses = cart_ram[0xF0E9 & 0x7F];
      const bool active = rd(ram, 0xA8) == 4;
      int blocks = 0;
      for (int i = 0; i < 25; ++i) {
        const int b = rd(ram, 0xB3 + i);
        if (b != 0 && b != 2 && b != 6 && b != 10 && b != 14) ++blocks;
      }
      const int level = cart_ram[0xF09D & 0x7F];
      s.terminal =
          (max_misses > 0 && misses == max_misses) || (active && blocks == 25) || level == 0x99;
      break;
    }
    case Game::koolaid:
      score_to(s, bcd2(ram, 0x81, 0x80) * 100);
      s.terminal = rd(ram, 0xD1) == 0x80;
      break;
    case Game::krull: {
      score_to(s, bcd3(ram, 0x9E, 0x9D, 0x9C));
      const int lives = rd(ram, 0x9F);
      s.terminal = lives == 0 && rd(ram, 0xA2) == 0x03 && rd(ram, 0x80) == 0x80;
      s.lives = (lives & 0x7) + 1;
      break;
    }
    case Game::kung_fu_master: {
      score_to(s, bcd3(ram, 0x9A, 0x99, 0x98));
      const int byte = rd(ram, 0x9D);
      s.terminal = byte == 0xFF;
      s.lives = (byte & 0x7) + 1;
      break;
    }
    case Game::laser_gates:
      score_to(s, bcd3(ram, 0x82, 0x81, 0x80));
      s.terminal = rd(ram, 0x83) == 0;
      break;
    case Game::lost_luggage:
      score_to(s, bcd3(ram, 0x96, 0x95, 0x94));
      s.lives = rd(ram, 0xCA);
      s.terminal =
          s.lives == 0 && rd(ram, 0xC8) == 0x0A && rd(ram, 0xA5) == 0 && rd(ram, 0xA9) == 0;
      break;
    case Game::mario_bros:
      score_to(s, bcd2(ram, 0x8A, 0x89) * 100);
      s.lives = rd(ram, 0x87);
      s.terminal = s.lives == 0;
      break;
    case Game::miniature_golf: {
      // aux: 0 level, 1 par, 2 hits, 3 left status, 4 hits at level start.
      s.reward = 0;
      const int left = bcd(ram, 0x87), right = bcd(ram, 0x88), level = bcd(ram, 0xAF);
      if (level != s.aux[0]) {
        const int level_hits = s.aux[3] + s.aux[2] - s.aux[4];
        if (level_hits > 0) s.reward = s.aux[1] - level_hits;
        if (level == 0) s.terminal = 1;
        s.aux[0] = level;
        s.aux[2] = 0;
        s.aux[4] = s.aux[3];
      }
      if (right != 0) {
        s.aux[1] = right;
      } else {
        if (left < s.aux[3]) s.aux[2] += s.aux[3];
        s.aux[3] = left;
      }
      break;
    }
    case Game::montezuma_revenge: {
      score_to(s, bcd3(ram, 0x95, 0x94, 0x93));
      const int byte = rd(ram, 0xBA);
      s.terminal = byte == 0 && rd(ram, 0xFE) == 0x60;
      s.lives = (byte & 0x7) + 1;
      break;
    }
    case Game::mr_do:
      score_to(s, bcd2(ram, 0x82, 0x83) * 10);
      s.lives = rd(ram, 0xDB);
      s.terminal = rd(ram, 0xDA) == 0x40;
      break;
    case Game::ms_pacman: {
      score_to(s, bcd3(ram, 0xF8, 0xF9, 0xFA));
      const int byte = rd(ram, 0xFB) & 0xF;
      s.terminal = byte == 0 && rd(ram, 0xA7) == 0x53;
      s.lives = (byte & 0x7) + 1;
      break;
    }
    case Game::name_this_game:
      score_to(s, bcd3(ram, 0xC6, 0xC5, 0xC4));
      s.lives = rd(ram, 0xC7) & 0x7;
      s.terminal = s.lives == 0;
      break;
    case Game::othello:
      score_to(s, bcd(ram, 0xCE) - bcd(ram, 0xD0));
      // aux[0]: consecutive frames with no input pending.
      s.aux[0] = rd(ram, 0xC0) == 0 ? s.aux[0] + 1 : 0;
      s.terminal = s.aux[0] > 50;
      break;
    case Game::pacman:
      score_to(s, bcd3(ram, 0xCC, 0xCE, 0xD0));
      s.lives = rd(ram, 0x98) + 1;
      s.terminal = s.lives == 1 && rd(ram, 0xE4) == 0x3F;
      break;
    case Game::phoenix: {
      const int score = (bcd2(ram, 0xC8, 0xC9) * 10 + (rd(ram, 0xC7) >> 4)) * 10;
      score_to(s, score);
      s.terminal = rd(ram, 0xCC) == 0x80;
      s.lives = rd(ram, 0xCB) & 0x7;
      break;
    }
    case Game::pitfall: {
      score_to(s, bcd3(ram, 0xD7, 0xD6, 0xD5));
      const int byte = rd(ram, 0x80) >> 4;
      s.terminal = byte == 0 && rd(ram, 0x9E) != 0;
      s.lives = byte == 0xA ? 3 : (byte == 0x8 ? 2 : 1);
      break;
    }
    case Game::pitfall2:
      score_to(s, bcd3(ram, 0xC9, 0xC8, 0xC7));
      s.lives = 1;
      s.terminal = s.score == 199000;
      break;
    case Game::pong: {
      const int cpu = rd(ram, 0x8D), player = rd(ram, 0x8E);
      score_to(s, player - cpu);
      s.terminal = cpu == 21 || player == 21;
      break;
    }
    case Game::pooyan: {
      score_to(s, bcd3(ram, 0x8A, 0x89, 0x88));
      const int byte = rd(ram, 0x96);
      s.terminal = byte == 0 && rd(ram, 0x98) == 0x05;
      s.lives = (byte & 0x7) + 1;
      break;
    }
    case Game::private_eye: {
      score_to(s, bcd3(ram, 0xCA, 0xC9, 0xC8));
      const int timer = rd(ram, 0xC2);
      s.terminal = timer != 0 && timer != 1;
      break;
    }
    case Game::qbert: {
      // aux[0]: the lives byte last seen, as a signed char.
      const int byte = rd(ram, 0x88);
      s.terminal = byte == 0xFE || (byte == 0x02 && s.aux[0] == -1);
      const int as_char = int8_t(byte);
      // Lives count down by one whenever the byte does.
      if (s.aux[0] - 1 == as_char) --s.lives;
      s.aux[0] = as_char;
      if (!s.terminal) {
        score_to(s, bcd3(ram, 0xDB, 0xDA, 0xD9));
      } else {
        s.reward = 0;
      }
      break;
    }
    case Game::riverraid: {
      // Digits are stored as 8 * digit; other values read as 0.
      auto digit = [ram](int address) {
        const int v = rd(ram, address);
        return (v & 7) == 0 && v <= 72 ? v / 8 : 0;
      };
      const int score = digit(0xD7) + 10 * digit(0xD5) + 100 * digit(0xD3) + 1000 * digit(0xD1) +
                        10000 * digit(0xCF) + 100000 * digit(0xCD);
      score_to(s, score);
      const int byte = rd(ram, 0xC0);
      s.terminal = byte == 0x58 && s.aux[0] == 0x59;
      s.aux[0] = byte;
      break;
    }
    case Game::road_runner: {
      int score = 0, weight = 1;
      for (int i = 0; i < 4; ++i, weight *= 10) score += weight * nibble_digit(ram, 0xC9 + i);
      score_to(s, score * 100);
      const int byte = rd(ram, 0xC4) & 0x7;
      s.terminal = byte == 0 && (rd(ram, 0xB9) != 0 || rd(ram, 0xBD) != 0);
      s.lives = byte + 1;
      break;
    }
    case Game::robotank: {
      score_to(s, rd(ram, 0xB6) * 12 + rd(ram, 0xB5));
      const int lives = rd(ram, 0xA8);
      s.terminal = lives == 0 && rd(ram, 0xB4) == 0xFF;
      s.lives = (lives & 0xF) + 1;
      break;
    }
    case Game::seaquest:
      score_to(s, bcd3(ram, 0xBA, 0xB9, 0xB8));
      s.terminal = rd(ram, 0xA3) != 0;
      s.lives = rd(ram, 0xBB) + 1;
      break;
    case Game::sir_lancelot:
      score_to(s, bcd3(ram, 0xA0, 0x9F, 0x9E));
      s.lives = rd(ram, 0xA9);
      s.terminal = s.lives == 0 && rd(ram, 0xA7) == 0xA0;
      break;
    case Game::skiing: {
      const int score = rd(ram, 0xE8) * 6000 + bcd2(ram, 0xEA, 0xE9);
      // Time spent is the (negative) reward.
      s.reward = s.score - score;
      s.score = score;
      s.terminal = rd(ram, 0x91) == 0xFF;
      break;
    }
    case Game::solaris: {
      score_to(s, bcd3(ram, 0xDC, 0xDD, 0xDE) * 10);
      const int byte = rd(ram, 0xD9);
      s.terminal = byte == 0;
      s.lives = byte & 0xF;
      break;
    }
    case Game::space_invaders: {
      const int score = bcd2(ram, 0xE8, 0xE6);
      s.reward = score - s.score;
      // The counter wraps at 10,000; the wrap is added back.
      if (s.reward < 0) s.reward = (10000 - s.score) + score;
      s.score = score;
      s.lives = rd(ram, 0xC9);
      s.terminal = (rd(ram, 0x98) & 0x80) || s.lives == 0;
      break;
    }
    case Game::space_war: {
      const int score = bcd(ram, 0xA7);
      score_to(s, score);
      s.terminal = score == 10 || rd(ram, 0x80) == 0;
      break;
    }
    case Game::star_gunner: {
      const int score = nibble_digit(ram, 0x83) + 10 * nibble_digit(ram, 0x84) +
                        100 * nibble_digit(ram, 0x85) + 1000 * nibble_digit(ram, 0x86);
      score_to(s, score * 100);
      const int byte = rd(ram, 0x87);
      s.terminal = byte == 0;
      // Lives read 5 until the lives byte has shown 5 once.
      if (byte == 0x05) s.flag = 1;
      s.lives = s.flag ? (byte & 0xF) : 5;
      break;
    }
    case Game::superman: {
      const int seconds = bcd(ram, 0xE2) + 60 * bcd(ram, 0xE3);
      const int room = rd(ram, 0x80) + (rd(ram, 0x81) << 8);
      s.terminal = (rd(ram, 0x9F) & 0x40) && room == 0xF2AC;
      s.reward = s.terminal ? (99 * 60 + 59) - seconds : 0;
      s.aux[0] = seconds;
      break;
    }
    case Game::surround: {
      const int theirs = bcd(ram, 0xF6), mine = bcd(ram, 0xF7);
      score_to(s, mine - theirs);
      s.terminal = theirs == 10 || mine == 10;
      break;
    }
    case Game::tennis: {
      // aux[0]: previous point difference, aux[1]: previous game difference.
      const int my_games = rd(ram, 0xC5), their_games = rd(ram, 0xC6);
      const int my_points = rd(ram, 0xC7), their_points = rd(ram, 0xC8);
      const int games = my_games - their_games, points = my_points - their_points;
      if (s.aux[0] != points) {
        s.reward = points - s.aux[0];
      } else if (s.aux[1] != games) {
        s.reward = games - s.aux[1];
      } else {
        s.reward = 0;
      }
      s.aux[0] = points;
      s.aux[1] = games;
      s.terminal = (my_points >= 6 && points >= 2) || (their_points >= 6 && -points >= 2) ||
                   my_points == 7 || their_points == 7;
      break;
    }
    case Game::tetris: {
      const int score = bcd2(ram, 0xF1, 0xF2);
      s.reward = score > s.score ? score - s.score : 0;
      s.score = score;
      s.flag = 1;
      s.terminal = (rd(ram, 0xF3) & 0x80) != 0;
      if (s.terminal) {
        s.score = 0;
        s.flag = 0;
      }
      break;
    }
    case Game::tic_tac_toe_3d: {
      s.reward = 0;
      if (rd(ram, 0xFF) == 0xF3 && rd(ram, 0xFE) == 0x10) {
        s.reward = rd(ram, 0xE1) == 0x08 ? 1 : -1;
        s.terminal = 1;
      }
      bool full = true;
      for (int address = 0x9A; address <= 0xD9; ++address) full = full && rd(ram, address) != 0;
      if (full) s.terminal = 1;
      break;
    }
    case Game::time_pilot:
      score_to(s, bcd2(ram, 0x8D, 0x8F) * 100);
      s.terminal = rd(ram, 0xA0) != 0;
      // Lives are only read on the playing screen.
      if ((rd(ram, 0x80) & 0xF) == 2) s.lives = (rd(ram, 0x8B) & 0x7) + 1;
      break;
    case Game::trondead: {
      score_to(s, bcd3(ram, 0xBF, 0xBE, 0xBD));
      const int hits = rd(ram, 0xC8);
      s.terminal = hits == 5;
      s.lives = 5 - hits;
      break;
    }
    case Game::turmoil: {
      score_to(s, (bcd2(ram, 0x89, 0x8A) + rd(ram, 0xD3)) * 10);
      const int byte = rd(ram, 0xB9);
      s.terminal = byte == 0 && rd(ram, 0xC5) == 0x01;
      s.lives = byte;
      break;
    }
    case Game::tutankham: {
      score_to(s, bcd2(ram, 0x9C, 0x9A));
      const int byte = rd(ram, 0x9E);
      s.terminal = byte == 0 && rd(ram, 0x81) != 0x84;
      s.lives = byte & 0x3;
      break;
    }
    case Game::up_n_down: {
      score_to(s, bcd3(ram, 0x82, 0x81, 0x80));
      const int byte = rd(ram, 0x86) & 0xF;
      s.terminal = rd(ram, 0x94) > 0x40 && byte == 0;
      s.lives = byte + 1;
      break;
    }
    case Game::venture: {
      score_to(s, bcd2(ram, 0xC8, 0xC7) * 100);
      const int byte = rd(ram, 0xC6);
      s.terminal = byte == 0 && rd(ram, 0xCD) == 0xFF && (rd(ram, 0xBF) & 0x80);
      s.lives = (byte & 0x7) + 1;
      break;
    }
    case Game::video_checkers: {
      int black = 0, white = 0;
      for (int address = 0x80; address <= 0xA2; ++address) {
        if (address == 0x88 || address == 0x91 || address == 0x9A) continue;
        count_checker(rd(ram, address), black, white);
      }
      // flag: the reversed game (setMode from mode 11 on).
      if (black == 0) {
        s.reward = s.flag ? 1 : -1;
        s.terminal = 1;
      } else if (white == 0) {
        s.reward = s.flag ? -1 : 1;
        s.terminal = 1;
      }
      break;
    }
    case Game::video_chess:
      s.reward = 0;
      if (rd(ram, 0xE1) == 0x82) {
        const int checkmate = rd(ram, 0xEE);
        if (checkmate == 0x00) {
          s.reward = 1;
          s.terminal = 1;
        } else if (checkmate == 0x01) {
          s.reward = -1;
          s.terminal = 1;
        }
      }
      break;
    case Game::video_cube: {
      // aux[0]/[1]: timer now/before (never reset), aux[2]: complete faces.
      int complete = 0;
      for (int face = 0; face < 6; ++face) {
        const int base = 0xA0 + 9 * face;
        bool same = true;
        for (int i = 1; i < 9 && same; ++i) same = rd(ram, base + i) == rd(ram, base);
        complete += same;
      }
      s.aux[1] = s.aux[0];
      s.aux[0] = rd(ram, 0xDB);
      const bool timed_out = s.aux[0] == 0 && s.aux[1] == 255;
      s.reward = timed_out ? -1 : complete - s.aux[2];
      s.aux[2] = complete;
      s.terminal = timed_out || complete == 6;
      break;
    }
    case Game::video_pinball:
      score_to(s, bcd3(ram, 0xB0, 0xB2, 0xB4));
      s.terminal = (rd(ram, 0xAF) & 0x1) != 0;
      s.lives = 4 + (rd(ram, 0xA8) & 0x1) - (rd(ram, 0x99) & 0x7);
      break;
    case Game::wizard_of_wor: {
      int score = bcd2(ram, 0x86, 0x88);
      if (score >= 8000) score -= 8000;
      score_to(s, score * 100);
      const int lives = rd(ram, 0x8D) & 15;
      s.terminal = lives == 0 && rd(ram, 0xF4) == 0xF8;
      // Lives are only read while the game waits between players' turns.
      if ((rd(ram, 0xD7) & 0x1) == 0) s.lives = lives;
      break;
    }
    case Game::word_zapper:
      if (bcd(ram, 0xCF) > 0) {
        const int score = 2 - int8_t(rd(ram, 0xDC));
        score_to(s, score);
        s.terminal = score == 3 || bcd(ram, 0xDE) == 0;
      }
      break;
    case Game::yars_revenge:
      score_to(s, bcd3(ram, 0xE2, 0xE1, 0xE0));
      s.lives = rd(ram, 0x9E) >> 4;
      s.terminal = s.lives == 0;
      break;
    case Game::zaxxon:
      score_to(s, bcd2(ram, 0xE9, 0xE8) * 100);
      s.lives = rd(ram, 0xEA) & 0x7;
      s.terminal = s.lives == 0;
      break;
    case Game::catch_game:
      // roms/catch.asm: $80 caught, $81 missed, $82 set once the game is over.
      score_to(s, rd(ram, 0x80) - rd(ram, 0x81));
      s.terminal = rd(ram, 0x82) != 0;
      break;
    default: break;
  }
}

//! ALE's getReward: the reward of the last step.
CULE_HD inline int32_t game_rules_reward(const GameRuleState& s) { return s.reward; }

//! ALE's isTerminal.
CULE_HD inline bool game_rules_terminal(const GameRuleState& s) { return s.terminal != 0; }

//! ALE's lives(), which most games report as 0 once terminal.
CULE_HD inline int32_t game_rules_lives(Game game, const GameRuleState& s) {
  const bool t = s.terminal != 0;
  switch (game) {
    // Settings that override lives() with a constant 0.
    case Game::bowling:
    case Game::boxing:
    case Game::carnival:
    case Game::double_dunk:
    case Game::enduro:
    case Game::fishing_derby:
    case Game::freeway:
    case Game::ice_hockey:
    case Game::journey_escape:
    case Game::koolaid:
    case Game::laser_gates:
    case Game::pong:
    case Game::private_eye:
    case Game::skiing:
    case Game::tennis: return 0;
    case Game::adventure: return 1;
    // Lives as stored, terminal or not.
    case Game::alien:
    case Game::chopper_command: return s.lives;
    case Game::riverraid: {
      const int byte = s.aux[0];
      // 0x58 before the first crossing counts as a full set.
      const int lives = byte == 0x58 ? 4 : (byte == 0x59 ? 1 : byte / 8 + 1);
      return t ? 0 : lives;
    }
    // Settings without lives of their own: RomSettings' default.
    case Game::air_raid:
    case Game::backgammon:
    case Game::basic_math:
    case Game::blackjack:
    case Game::casino:
    case Game::crossbow:
    case Game::darkchambers:
    case Game::earthworld:
    case Game::entombed:
    case Game::flag_capture:
    case Game::hangman:
    case Game::human_cannonball:
    case Game::kaboom:
    case Game::klax:
    case Game::miniature_golf:
    case Game::othello:
    case Game::space_war:
    case Game::superman:
    case Game::surround:
    case Game::tic_tac_toe_3d:
    case Game::video_checkers:
    case Game::video_cube:
    case Game::word_zapper: return t ? 0 : 1;
    default: return t ? 0 : s.lives;
  }
}

}  // namespace cule
