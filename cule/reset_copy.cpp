#include "cule/reset_copy.hpp"

#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <tuple>

#include "kernels/env_step.hpp"

namespace cule {
namespace {

// A console and its frame buffers, on the host.
struct Past {
  AleConsole console;
  std::vector<uint8_t> pixels;

  FrameBuffers frames() { return FrameBuffers{pixels.data(), uint32_t(pixels.size() / 2)}; }
  int buffer() const { return console.machine.tia.current_buffer; }
  bool operator==(const Past& o) const {
    return std::memcmp(&console, &o.console, sizeof console) == 0 && pixels == o.pixels;
  }
};

// A console as env_rebuild leaves an environment's for `seed`.
Past rebuilt(const Console& prototype, uint64_t seed, int mode, int difficulty) {
  const Console::Snapshot& constructed = prototype.constructed();
  Past past{AleConsole{}, std::vector<uint8_t>(constructed.frames.size())};
  EnvSetup setup{};
  setup.ale = prototype.setup();
  setup.screen_pixels = uint32_t(past.pixels.size() / 2);
  EnvEpisode episode{};
  EnvBatch batch{};
  batch.consoles = &past.console;
  batch.episodes = &episode;
  batch.pixels = past.pixels.data();
  env_rebuild(setup, batch, 0, constructed.state, constructed.frames.data(), seed, mode,
              difficulty);
  return past;
}

// Random play (all 18 actions) for `frames` frames, resetting at each game's
// end, or stopping there when `until_over`.
void play(Past& past, const AleSetup& s, uint32_t seed, int frames, bool until_over) {
  std::mt19937 rng(seed);
  for (int f = 0; f < frames; ++f) {
    ale_act(past.console, s, past.frames(), int(rng() % kNumActions), 1.0f);
    if (!ale_terminal(past.console)) continue;
    if (until_over) return;
    ale_reset(past.console, s, past.frames());
  }
}

// How many draws took an RNG from `from` to `to` (none found within `limit`: -1).
int64_t draws_between(Mt19937 from, const Mt19937& to, uint32_t limit) {
  for (uint32_t draws = 0; draws <= limit; ++draws) {
    if (from.next == to.next && std::memcmp(from.word, to.word, sizeof from.word) == 0) {
      return draws;
    }
    mt19937_discard(from, 1);
  }
  return -1;
}

std::shared_ptr<const ResetCopy> make_reset_copy(const Console& prototype, int mode,
                                                 int difficulty) {
  const AleSetup& s = prototype.setup();
  // The pasts the copy must stand in for, of either TIA buffer.
  std::vector<Past> pasts{rebuilt(prototype, 1, mode, difficulty)};
  pasts.push_back(pasts.front());
  ale_act(pasts.back().console, s, pasts.back().frames(), 0, 1.0f);
  pasts.push_back(pasts.front());  // reset below: the system RNG at the next reset's place
  if (ale_reset(pasts.back().console, s, pasts.back().frames()) != ModeStatus::ok) return nullptr;
  uint32_t seed = 2;
  for (int frames : {300, 301, 1500, 1501}) {
    Past played = rebuilt(prototype, seed, mode, difficulty);
    play(played, s, seed++, frames, false);
    pasts.push_back(played);
  }
  Past over = rebuilt(prototype, seed, mode, difficulty);
  play(over, s, seed++, 3000, true);  // a game just over (or 3,000 frames on)
  pasts.push_back(over);
  std::mt19937 rng(seed);
  for (uint8_t& byte : over.console.machine.riot.ram) byte = uint8_t(rng());
  pasts.push_back(over);

  auto copy = std::make_shared<ResetCopy>();
  const size_t screens = pasts.front().pixels.size();
  copy->pixels.resize(AleResetCopy::kKeys * screens);
  uint32_t seen_twice = 0;
  for (const Past& past : pasts) {
    Past whole = past;
    if (ale_reset(whole.console, s, whole.frames()) != ModeStatus::ok) return nullptr;
    const uint32_t key = ale_reset_copy_key(past.console);
    if (!(copy->keys >> key & 1)) {
      if (copy->keys == 0) {
        // A reset draws 1 + cartridge RAM bytes (at most 2 KiB) from the
        // system RNG, and 2 per act of a mode selection from the
        // environment's; the pasts below check the counts.
        constexpr uint32_t kDrawLimit = 1u << 20;
        const int64_t system_draws =
            draws_between(past.console.system_rng, whole.console.system_rng, kDrawLimit);
        const int64_t env_draws =
            draws_between(past.console.env_rng, whole.console.env_rng, kDrawLimit);
        if (system_draws < 0 || env_draws < 0) return nullptr;
        copy->system_draws = uint32_t(system_draws);
        copy->env_draws = uint32_t(env_draws);
        copy->frames_counted = uint32_t(whole.console.frame_number - past.console.frame_number);
      }
      copy->keys |= 1u << key;
      copy->after[key] = whole.console;
      std::memcpy(copy->pixels.data() + key * screens, whole.pixels.data(), screens);
    } else {
      seen_twice |= 1u << key;
    }
    Past copied = past;
    ale_reset_or_copy(copied.console, s, copy->view(), copied.frames());
    if (!(whole == copied)) return nullptr;
  }
  copy->keys = seen_twice;
  return copy->keys ? copy : nullptr;
}

}  // namespace

std::shared_ptr<const ResetCopy> find_reset_copy(const Console& prototype, int mode,
                                                 int difficulty) {
  using Key = std::tuple<std::string, int, int>;
  static std::mutex mutex;
  static std::map<Key, std::shared_ptr<const ResetCopy>> found;
  const Key key{prototype.rom().md5(), mode, difficulty};
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto it = found.find(key);
    if (it != found.end()) return it->second;
  }
  std::shared_ptr<const ResetCopy> copy = make_reset_copy(prototype, mode, difficulty);
  const std::lock_guard<std::mutex> lock(mutex);
  return found.emplace(key, std::move(copy)).first->second;
}

}  // namespace cule
