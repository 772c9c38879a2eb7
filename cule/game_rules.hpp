// Host-side facts about ALE's per-game rules (kernels/game_rules.hpp): game
// ids and minimal action sets.
#pragma once

#include <string>
#include <vector>

#include "kernels/game_rules.hpp"

namespace cule {

//! The game for an ale-py ROM id ("pong", "space_invaders"). Throws
//! cule::Error naming the id when ALE has no settings for it.
Game game_from_id(const std::string& id);

//! Whether `id` names one of the project's own games (roms/*.asm) rather
//! than one of ALE's.
bool is_project_game(const std::string& id);

//! The ale-py id of a game.
const char* game_id(Game game);

//! ALE's minimal action set for a game (RomSettings::getMinimalActionSet):
//! the actions 0-17 it deems minimal and legal, in ALE's action order.
std::vector<int> minimal_action_set(Game game);

//! What ALE's lives() reports right after its settings' reset(), before any
//! step: 0 for games that report no lives, else the settings' initial count.
int lives_at_reset(Game game);

}  // namespace cule
