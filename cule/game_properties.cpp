// The table behind find_game_properties(); see game_properties.hpp for where
// its facts come from and the rules it folds in. One row per ROM that ale-py
// 0.12.1 ships, sorted by md5 so that lookups can bisect it.
#include "cule/game_properties.hpp"

#include <cctype>

namespace cule {
namespace {

constexpr const char* kAuto = "AUTO-DETECT";
constexpr TvFormat kNtsc = TvFormat::NTSC;
constexpr TvFormat kPal = TvFormat::PAL;

// Columns: md5, rom id, cartridge type, bank scheme, y start, height, HMOVE
// blanks, format, format auto-detected, left paddles, right paddles, swap
// ports, swap paddles, left difficulty, right difficulty, colour TV, in database.
// clang-format off
constexpr GameProperties kGames[] = {
    {"00ce0bdd43aed84a983bef38fe7f5ee3", "bank_heist", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"028024fb8e5e5f18ea586652f9799c96", "carnival", kAuto, "4K", 26, 214, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"081e2c114c9c20b61acf25fc95c71bf4", "frogger", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"085322bae40d904f53bdcc56df0593fc", "tutankham", kAuto, "E0", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"0a981c03204ac2b278ba392674682560", "blackjack", kAuto, "2K", 34, 210, true, kNtsc, true, true, false, false, false, 'B', 'B', true, true},
    {"0db4f4150fecf77e4ce72ca4d04c052f", "tic_tac_toe_3d", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"0dd4c69b5f9a7ae96a7a08329496779a", "king_kong", kAuto, "4K", 34, 250, true, kPal, true, false, false, false, false, 'B', 'B', true, true},
    {"0ef64cdbecccb7049752a3de0b7ade14", "combat", kAuto, "2K", 39, 256, true, kPal, true, false, false, false, false, 'B', 'B', true, true},
    {"0f643c34e40e3f1daafd9c524d3ffe64", "defender", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"106855474c69d08c8ffa308d47337269", "darkchambers", kAuto, "F6SC", 34, 210, false, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"107cc025334211e6d29da0b6be46aec7", "video_pinball", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"113cd09c9771ac278544b7e90efe7df2", "othello", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"136f75c4dd02c29283752b7e5799f978", "berzerk", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"211774f4c5739042618be8ff67351177", "galaxian", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"240bfbac5163af4df5ae713985386f92", "seaquest", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"2d76c5d1aad506442b9e9fb67765e051", "lost_luggage", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"30512e0e83903fc05541d2f6a6a62654", "flag_capture", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"3276c777cbe97cdd2b4a63ffc16b7151", "joust", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"3347a6dd59049b15a38394aa2dafa585", "montezuma_revenge", kAuto, "E0", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"35be55426c1fec32dfb503b4f0651572", "air_raid", kAuto, "4K", 34, 250, true, kPal, true, false, false, false, false, 'B', 'B', true, true},
    {"36306070f0c90a72461551a7a4f3a209", "name_this_game", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"368d88a6c071caba60b4f778615aae94", "double_dunk", kAuto, "F6", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"36b20c427975760cb9cf4a47e41369e4", "donkey_kong", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"393948436d1f4cc3192410bb918f9724", "riverraid", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"3e899eba0ca8cd2972da1ae5479b4f0d", "venture", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"3e90cf23106f2e08b2781e41299de556", "pitfall", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"3f540a30fdee0b20aed7288e4a5ea528", "video_cube", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"41f252a66c6301f1e8ab3612c19bc5d4", "battle_zone", kAuto, "F8", 34, 210, false, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"42cdd6a9e42a3639e190722b8ea3fc51", "tennis", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"4326edb70ff20d0ee5ba58fa5cb09d60", "kangaroo", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"4799a40b6e889370b7ee55c17ba65141", "pooyan", kAuto, "4K", 26, 220, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"484b0076816a104875e00467d431c2d2", "qbert", kAuto, "4K", 40, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"4b27f5397c442d25f0c418ccdacf1926", "adventure", kAuto, "4K", 34, 250, true, kPal, true, false, false, false, false, 'B', 'B', true, true},
    {"4baada22435320d185c95b7dd2bcdb24", "krull", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"4ca73eb959299471788f0b685c3ba0b5", "frostbite", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"4d7517ae69f95cfbc053be01312b7dba", "surround", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, true, false, 'B', 'B', true, true},
    {"4f618c2429138e0280969193ed6c107e", "robotank", kAuto, "FE", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"534e23210dd1993c828d944c6ac4d9fb", "koolaid", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"539d26b6e9df0da8e7465f0f5ad863b7", "video_checkers", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"5428cdfada281c569c74c7308c7f2c26", "kaboom", kAuto, "2K", 34, 210, true, kNtsc, true, true, false, false, false, 'B', 'B', true, true},
    {"55ef7b65066428367844342ed59f956c", "crazy_climber", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"5aea9974b975a6a844e6df10d2b861c4", "earthworld", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"5b92a93b23523ff16e2789b820e2a4c5", "kung_fu_master", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"60e0ea3cbe0913d39803477945e9e5ec", "pong", kAuto, "2K", 34, 210, true, kNtsc, true, true, true, false, true, 'B', 'B', true, true},
    {"615a3bf251a38eb6638cdc7ffbde5480", "et", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"6b683be69f92958abe0e2a9945157ad5", "entombed", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"6c1f3f2e359dbf55df462ccbcdd2f6bf", "keystone_kapers", kAuto, "4K", 34, 250, true, kPal, true, false, false, false, false, 'B', 'B', true, true},
    {"6d842c96d5a01967be9680080dd5be54", "pitfall2", kAuto, "DPC", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"718ae62c70af4e5fd8e932fee216948a", "journey_escape", kAuto, "4K", 34, 230, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"71f8bacfbdca019113f3f0801849057e", "elevator_action", kAuto, "F8SC", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"72ffbef6504b75e69ee1045af9075f66", "space_invaders", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"7972e5101fa548b952d852db24ad6060", "human_cannonball", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"79ab4123a83dc11d468fb2108ea09e2e", "beam_rider", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"7a5463545dfb2dcfdafa6074b2f2c15e", "turmoil", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"7e52a95074a66640fcfde124fffd491a", "phoenix", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"7e8aa18bc9502eb57daaf5e7c1e94da7", "wizard_of_wor", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, true, false, 'B', 'B', true, true},
    {"819aeeb9a2e11deb54e6de334f843894", "basic_math", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"826481f6fc53ea47c9f272f7050eedf7", "atlantis2", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"8556b42aa05f94bc29ff39c39b11bff4", "backgammon", kAuto, "4K", 34, 210, true, kNtsc, true, true, false, false, false, 'B', 'B', true, true},
    {"87e79cd41ce136fd4f72cc6e2c161bee", "ms_pacman", kAuto, "F8", 34, 210, false, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"89a68746eff7f266bbf08de2483abe55", "asterix", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"8ac18076d01a6b63acf6e2cab4968940", "gravitar", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"8cd26dcf249456fe4aeb8db42d49df74", "crossbow", kAuto, "F6", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"8e0ab801b1705a740b476b7f588c6d16", "freeway", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"8e4cd60d93fcde8065c1a2b972a26377", "laser_gates", kAuto, "4K", 34, 250, true, kPal, true, false, false, false, false, 'B', 'B', true, true},
    {"91c2098e88a6b13f977af8c003e0bca5", "centipede", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"94b92a882f6dbaa6993a46e2dcc58402", "enduro", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"9ad36e699ef6f45d9eb6c4cf90475c9f", "atlantis", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"a3c1c70024d7aabb41381adbfb6d3b25", "star_gunner", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"a499d720e7ee35c62424de882a3351b6", "up_n_down", kAuto, "F8", 30, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"a4c08c4994eb9d24fb78be1793e82e26", "ice_hockey", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"a9531c763077464307086ec9a1fd057d", "superman", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"aa7bb54d2c189a31bb1fa20099e42859", "mr_do", kAuto, "F8", 34, 250, true, kPal, true, false, false, false, false, 'B', 'B', true, true},
    {"acb7750b4d0c4bd34969802a7deb2990", "amidar", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'A', 'A', true, true},
    {"b0e1ee07fbc73493eac5651a52f90f00", "tetris", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"b702641d698c60bcdc922dbd8c9dd49c", "space_war", kAuto, "2K", 34, 250, true, kPal, true, false, false, false, false, 'B', 'B', true, true},
    {"b76fbadc8ffb1f83e2ca08b6fb4d6c9f", "skiing", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"b816296311019ab69a21cb9e9e235d12", "casino", kAuto, "4K", 34, 210, true, kNtsc, true, true, false, false, false, 'B', 'B', true, true},
    {"b8865f05676e64f3bec72b9defdacfa7", "fishing_derby", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"c16c79aad6272baffb8aae9a7fff0864", "gopher", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"c1cb228470a87beb5f36e90ac745da26", "chopper_command", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"c3ef5c4653212088eda54dc91d787870", "boxing", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"c5930d0e8cdae3e037349bfa08e871be", "yars_revenge", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"c9b7afad3bfd922e006a6bfc1d4f3fe7", "bowling", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"cbe5a166550a8129a5e6d374901dffad", "warlords", kAuto, "4K", 34, 210, true, kNtsc, true, true, true, false, false, 'B', 'B', true, true},
    {"ccbd36746ed4525821a8083b0d6d2c2c", "asteroids", kAuto, "F8", 34, 210, false, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"ce5cc62608be2cd3ed8abd844efb8919", "road_runner", kAuto, "F6", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, false},
    {"dd0cbe5351551a538414fb9e37fc56e8", "sir_lancelot", kAuto, "F8", 34, 250, true, kPal, true, false, false, false, false, 'B', 'B', true, true},
    {"de78b3a064d374390ac0710f95edde92", "assault", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"df62a658496ac98a3aa4a6ee5719c251", "miniature_golf", kAuto, "2K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"e51030251e440cffaab1ac63438b44ae", "jamesbond", kAuto, "E0", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"e72eb8d4410152bdcb69e7fba327b420", "solaris", kAuto, "F6", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"e908611d99890733be31733a979c62d8", "mario_bros", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"ec3beb6d8b5689e867bafb5d5f507491", "word_zapper", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"ed2218b3075d15eaa34e3356025ccca3", "maze_craze", kAuto, "4K", 34, 250, true, kPal, false, false, false, false, false, 'B', 'B', true, true},
    {"eea0da9b987d661264cce69a7c13c3bd", "zaxxon", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"eed9eaf1a0b6a2b9bc4c8032cb43e3fb", "klax", kAuto, "F6SC", 34, 250, true, kPal, true, false, false, false, false, 'B', 'B', true, true},
    {"ef3a4f64b6494ba770862768caf04b86", "private_eye", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"f0a6e99f5875891246c3dbecbf2d2cea", "haunted_house", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"f0b7db930ca0e548c41a97160b9f6275", "video_chess", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"f0e0addc07971561ab80d9abe1b8d333", "demon_attack", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"f16c709df0a6c52f47ff52b9d95b7d8d", "hangman", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"f1a0a23e6464d954e3a9579c4ccd01c8", "alien", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"f34f08e5eb96e500e851a80be3277a56", "breakout", kAuto, "2K", 34, 210, true, kNtsc, true, true, false, false, false, 'B', 'B', true, true},
    {"fb27afe896e7c928089307b32e5642ee", "trondead", kAuto, "4K", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"fc2104dd2dadf9a6176c1c1c8f87ced9", "time_pilot", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
    {"fc2233fc116faef0d3c31541717ca2db", "pacman", kAuto, "4K", 34, 250, true, kPal, true, false, false, false, false, 'B', 'B', true, true},
    {"fca4a5be1251927027f2c24774a02160", "hero", kAuto, "F8", 34, 210, true, kNtsc, true, false, false, false, false, 'B', 'B', true, true},
};
// clang-format on

constexpr size_t kGameCount = sizeof(kGames) / sizeof(kGames[0]);
static_assert(kGameCount == 108, "one entry per ROM ale-py ships");

// Negative, zero or positive as a sorts before, with or after b.
constexpr int compare_md5(const char* a, const char* b) {
  for (int i = 0; i < 32; ++i) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

constexpr bool table_is_sorted() {
  for (size_t i = 1; i < kGameCount; ++i) {
    if (compare_md5(kGames[i - 1].md5, kGames[i].md5) >= 0) return false;
  }
  return true;
}
static_assert(table_is_sorted(), "kGames must be sorted by md5, without repeats");

}  // namespace

const GameProperties* find_game_properties(const char* md5) {
  if (md5 == nullptr) return nullptr;
  char key[33];
  for (int i = 0; i < 32; ++i) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(md5[i])));
    if (!std::isxdigit(static_cast<unsigned char>(c))) return nullptr;  // also stops at '\0'
    key[i] = c;
  }
  key[32] = '\0';
  if (md5[32] != '\0') return nullptr;

  size_t low = 0;
  size_t high = kGameCount;
  while (low < high) {
    const size_t mid = low + (high - low) / 2;
    const int order = compare_md5(key, kGames[mid].md5);
    if (order == 0) return &kGames[mid];
    if (order < 0) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  return nullptr;
}

GamePropertiesList all_game_properties() { return GamePropertiesList{kGames, kGameCount}; }

GameProperties default_game_properties(TvFormat detected_format) {
  GameProperties p{};
  p.md5 = nullptr;
  p.rom_id = nullptr;
  p.cartridge_type = kAuto;
  p.bank_scheme = nullptr;
  p.y_start = kDefaultYStart;
  p.height = detected_format == TvFormat::PAL ? kPalDefaultHeight : kDefaultHeight;
  p.hmove_blanks = true;
  p.format = detected_format;
  p.format_autodetected = true;
  p.left_paddles = false;
  p.right_paddles = false;
  p.swap_ports = false;
  p.swap_paddles = false;
  p.left_difficulty = 'B';
  p.right_difficulty = 'B';
  p.color_tv = true;
  p.in_database = false;
  return p;
}

}  // namespace cule
