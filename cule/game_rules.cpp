#include "cule/game_rules.hpp"

#include <cstring>

#include "cule/error.hpp"

namespace cule {
namespace {

// ale-py ids, in the order of enum Game.
constexpr const char* kGameIds[kNumGames] = {
    "adventure",
    "air_raid",
    "alien",
    "amidar",
    "assault",
    "asterix",
    "asteroids",
    "atlantis",
    "atlantis2",
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
    "pitfall",
    "pitfall2",
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
    "zaxxon",
    "catch",
};

}  // namespace

Game game_from_id(const std::string& id) {
  for (int i = 0; i < kNumGames; ++i) {
    if (id == kGameIds[i]) return static_cast<Game>(i);
  }
  throw Error("game: '" + id + "' has no ALE game settings; expected an ale-py id such as 'pong'");
}

const char* game_id(Game game) {
  const int i = static_cast<int>(game);
  return i >= 0 && i < kNumGames ? kGameIds[i] : "unknown";
}

std::vector<int> minimal_action_set(Game game) {
  const std::vector<int> kAll = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
  switch (game) {
    case Game::adventure: return kAll;
    case Game::air_raid: return {0, 1, 3, 4, 11, 12};
    case Game::alien: return kAll;
    case Game::amidar: return {0, 1, 2, 3, 4, 5, 10, 11, 12, 13};
    case Game::assault: return {0, 1, 2, 3, 4, 11, 12};
    case Game::asterix: return {0, 2, 3, 4, 5, 6, 7, 8, 9};
    case Game::asteroids: return {0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15};
    case Game::atlantis: return {0, 1, 11, 12};
    case Game::atlantis2: return {0, 1, 11, 12};
    case Game::backgammon: return {1, 3, 4};
    case Game::bank_heist: return kAll;
    case Game::basic_math: return {0, 1, 2, 3, 4, 5};
    case Game::battle_zone: return kAll;
    case Game::beam_rider: return {0, 1, 2, 3, 4, 6, 7, 11, 12};
    case Game::berzerk: return kAll;
    case Game::blackjack: return {0, 1, 2, 5};
    case Game::bowling: return {0, 1, 2, 5, 10, 13};
    case Game::boxing: return kAll;
    case Game::breakout: return {0, 1, 3, 4};
    case Game::carnival: return {0, 1, 3, 4, 11, 12};
    case Game::casino: return {0, 1, 2, 5};
    case Game::centipede: return kAll;
    case Game::chopper_command: return kAll;
    case Game::crazy_climber: return {0, 2, 3, 4, 5, 6, 7, 8, 9};
    case Game::crossbow: return kAll;
    case Game::darkchambers: return kAll;
    case Game::defender: return kAll;
    case Game::demon_attack: return {0, 1, 3, 4, 11, 12};
    case Game::donkey_kong: return kAll;
    case Game::double_dunk: return kAll;
    case Game::earthworld: return kAll;
    case Game::elevator_action: return kAll;
    case Game::enduro: return {0, 1, 3, 4, 5, 8, 9, 11, 12};
    case Game::entombed: return kAll;
    case Game::et: return kAll;
    case Game::fishing_derby: return kAll;
    case Game::flag_capture: return kAll;
    case Game::freeway: return {0, 2, 5};
    case Game::frogger: return {0, 2, 3, 4, 5};
    case Game::frostbite: return kAll;
    case Game::galaxian: return {0, 1, 3, 4, 11, 12};
    case Game::gopher: return {0, 1, 2, 3, 4, 10, 11, 12};
    case Game::gravitar: return kAll;
    case Game::hangman: return kAll;
    case Game::haunted_house: return kAll;
    case Game::hero: return kAll;
    case Game::human_cannonball: return kAll;
    case Game::ice_hockey: return kAll;
    case Game::jamesbond: return kAll;
    case Game::journey_escape: return {0, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17};
    case Game::kaboom: return {0, 1, 3, 4};
    case Game::kangaroo: return kAll;
    case Game::keystone_kapers: return {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
    case Game::king_kong: return {0, 1, 2, 3, 4, 5};
    case Game::klax: return kAll;
    case Game::koolaid: return {0, 2, 3, 4, 5, 6, 7, 8, 9};
    case Game::krull: return kAll;
    case Game::kung_fu_master: return {0, 2, 3, 4, 5, 8, 9, 11, 12, 13, 14, 15, 16, 17};
    case Game::laser_gates: return kAll;
    case Game::lost_luggage: return {0, 2, 3, 4, 5, 6, 7, 8, 9};
    case Game::mario_bros: return kAll;
    case Game::miniature_golf: return kAll;
    case Game::montezuma_revenge: return kAll;
    case Game::mr_do: return {0, 1, 2, 3, 4, 5, 10, 11, 12, 13};
    case Game::ms_pacman: return {0, 2, 3, 4, 5, 6, 7, 8, 9};
    case Game::name_this_game: return {0, 1, 3, 4, 11, 12};
    case Game::othello: return {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    case Game::pacman: return {0, 2, 3, 4, 5};
    case Game::phoenix: return {0, 1, 3, 4, 5, 11, 12, 13};
    case Game::pitfall: return kAll;
    case Game::pitfall2: return kAll;
    case Game::pong: return {0, 1, 3, 4, 11, 12};
    case Game::pooyan: return {0, 1, 2, 5, 10, 13};
    case Game::private_eye: return kAll;
    case Game::qbert: return {0, 1, 2, 3, 4, 5};
    case Game::riverraid: return kAll;
    case Game::road_runner: return kAll;
    case Game::robotank: return kAll;
    case Game::seaquest: return kAll;
    case Game::sir_lancelot: return {0, 1, 3, 4, 11, 12};
    case Game::skiing: return {0, 3, 4};
    case Game::solaris: return kAll;
    case Game::space_invaders: return {0, 1, 3, 4, 11, 12};
    case Game::space_war: return kAll;
    case Game::star_gunner: return kAll;
    case Game::superman: return kAll;
    case Game::surround: return {0, 2, 3, 4, 5};
    case Game::tennis: return kAll;
    case Game::tetris: return {0, 1, 3, 4, 5};
    case Game::tic_tac_toe_3d: return {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    case Game::time_pilot: return {0, 1, 2, 3, 4, 5, 10, 11, 12, 13};
    case Game::trondead: return kAll;
    case Game::turmoil: return {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12};
    case Game::tutankham: return {0, 2, 3, 4, 5, 10, 11, 12};
    case Game::up_n_down: return {0, 1, 2, 5, 10, 13};
    case Game::venture: return kAll;
    case Game::video_checkers: return {1, 6, 7, 8, 9};
    case Game::video_chess: return {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    case Game::video_cube: return kAll;
    case Game::video_pinball: return {0, 1, 2, 3, 4, 5, 10, 11, 12};
    case Game::wizard_of_wor: return {0, 1, 2, 3, 4, 5, 10, 11, 12, 13};
    case Game::word_zapper: return kAll;
    case Game::yars_revenge: return kAll;
    case Game::zaxxon: return kAll;
    case Game::catch_game: return {0, 3, 4};  // NOOP, RIGHT, LEFT
    default: return {};
  }
}

bool is_project_game(const std::string& id) {
  for (int i = kNumAleGames; i < kNumGames; ++i) {
    if (id == kGameIds[i]) return true;
  }
  return false;
}

int lives_at_reset(Game game) {
  GameRuleState state;
  game_rules_init(state);
  game_rules_reset(game, state);
  return game_rules_lives(game, state);
}

}  // namespace cule
