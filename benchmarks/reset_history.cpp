// What ALE's reset of a game costs, and what its result depends on: the
// facts a faster reset would rest on (on the GPU one thread runs a whole
// reset while the rest of its warp waits).
//
//   reset_history ROM...
//
// For each game with rules (one row each, then a summary):
// - the reset's cost in frames: the time of Console::reset over the time of
//   one frame of play (host, this machine);
// - history: consoles with different histories (random play for 0, 300,
//   1,500 and 4,000 frames, resetting when a game ends) reset from the same
//   system RNG state; "same" when their machines (CPU, RIOT, TIA,
//   cartridge), game rules and screens after it are equal, else which parts
//   differ for which history;
// - RNG: the same history reset from the system RNG state of its next
//   reset (ALE draws the RIOT timer and cartridge RAM from it at each);
//   "same" when the result is equal too.
// A game whose resets are the same for every history reached would only
// need its results per system RNG state; "same" in both columns, one
// result. These are samples of histories, not a proof for all of them;
// cule/reset_copy.hpp builds the copies VecEnv resets from on such trials.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "cule/console.hpp"
#include "cule/rom.hpp"

namespace {

using cule::Console;

struct AfterReset {
  cule::ConsoleState machine;
  cule::GameRuleState rules;
  std::vector<uint8_t> screen;
};

AfterReset reset_from(Console& console, const cule::Mt19937& system_rng) {
  console.ale_state().system_rng = system_rng;
  console.reset();
  const uint8_t* screen = console.screen();
  return {console.ale_state().machine, console.ale_state().rules,
          std::vector<uint8_t>(screen, screen + console.width() * console.height())};
}

template <class T>
bool differ(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) != 0;
}

// The parts in which two results differ ("" when none).
std::string differences(const AfterReset& a, const AfterReset& b) {
  std::string parts;
  auto note = [&parts](bool differs, const char* name) {
    if (differs) parts += parts.empty() ? name : std::string(", ") + name;
  };
  note(differ(a.machine.cpu, b.machine.cpu), "CPU");
  note(differ(a.machine.riot, b.machine.riot), "RIOT");
  note(differ(a.machine.tia, b.machine.tia), "TIA");
  note(differ(a.machine.cart, b.machine.cart), "cartridge");
  note(differ(a.rules, b.rules), "rules");
  note(a.screen != b.screen, "screen");
  return parts;
}

// A console of `rom` after `frames` frames of random play.
Console played(const cule::Rom& rom, int frames) {
  Console console(rom, uint32_t(frames));
  std::mt19937 rng{uint32_t(frames)};
  for (int f = 0; f < frames; ++f) {
    console.act(int(rng() % 18));
    if (console.terminal()) console.reset();
  }
  return console;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The time of one reset over that of one frame of play.
double reset_cost_in_frames(Console& console) {
  constexpr int kFrames = 600, kResets = 5;
  auto start = std::chrono::steady_clock::now();
  for (int f = 0; f < kFrames; ++f) console.act(0);
  const double frame = seconds_since(start) / kFrames;
  start = std::chrono::steady_clock::now();
  for (int r = 0; r < kResets; ++r) console.reset();
  return seconds_since(start) / kResets / frame;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s ROM...\n", argv[0]);
    return 2;
  }
  std::printf("| game | reset, in frames | history | RNG |\n| --- | ---: | --- | --- |\n");
  int games = 0, same_history = 0, same_both = 0;
  try {
    for (int g = 1; g < argc; ++g) {
      const cule::Rom rom = cule::Rom::load(argv[g]);
      Console reference(rom);
      if (!reference.has_rules()) continue;
      ++games;
      const cule::Mt19937 system_rng = reference.ale_state().system_rng;
      const double cost = reset_cost_in_frames(reference);

      std::string history;
      Console fresh = played(rom, 0);
      const AfterReset first = reset_from(fresh, system_rng);
      for (int frames : {300, 1500, 4000}) {
        Console console = played(rom, frames);
        const std::string parts = differences(first, reset_from(console, system_rng));
        if (!parts.empty()) {
          history += (history.empty() ? "" : "; ") + std::to_string(frames) + " frames: " + parts;
        }
      }
      // The system RNG as the next reset of a fresh console finds it.
      Console twice = played(rom, 0);
      twice.reset();
      const cule::Mt19937 next_rng = twice.ale_state().system_rng;
      Console other = played(rom, 0);
      const std::string by_rng = differences(first, reset_from(other, next_rng));

      same_history += history.empty();
      same_both += history.empty() && by_rng.empty();
      std::printf("| %s | %.0f | %s | %s |\n", rom.name().c_str(), cost,
                  history.empty() ? "same" : history.c_str(),
                  by_rng.empty() ? "same" : by_rng.c_str());
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "reset_history: %s\n", e.what());
    return 1;
  }
  std::printf(
      "\n%d games: %d reset the same after every history tried, %d of them whatever the system "
      "RNG too\n",
      games, same_history, same_both);
  return 0;
}
