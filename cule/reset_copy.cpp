#include "cule/reset_copy.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <unordered_map>

#include "kernels/env_step.hpp"

namespace cule {
namespace {

// What the consoles after a reset's first acts may take, per game (device
// memory too).
constexpr size_t kStartActsMaxBytes = size_t(64) << 20;

// A console and its frame buffers, on the host.
struct Past {
  AleConsole console;
  std::vector<uint8_t> pixels;

  FrameBuffers frames() { return FrameBuffers{pixels.data(), uint32_t(pixels.size() / 2)}; }
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

// The trial of a copy keyed by TIA state (and timer, `by_timer`): every
// past's whole reset against its key's copy. The copy of the keys seen
// twice, or null.
std::shared_ptr<ResetCopy> try_copy(const AleSetup& s, const std::vector<Past>& pasts,
                                    bool by_timer) {
  auto copy = std::make_shared<ResetCopy>();
  copy->by_timer = by_timer;
  const size_t keys = AleResetCopy::kTiaKeys * (by_timer ? kRiotResetTimers : 1);
  copy->console_of.assign(keys, -1);
  copy->screens_of.assign(keys, -1);
  std::vector<int> seen(keys, 0);
  const size_t screens = pasts.front().pixels.size();
  for (const Past& past : pasts) {
    Past whole = past;
    if (ale_reset(whole.console, s, whole.frames()) != ModeStatus::ok) return nullptr;
    AleConsole keyed = past.console;  // the key's look at the timer may twist the RNG's words
    const uint32_t key = ale_reset_copy_key(copy->view(), keyed);
    if (seen[key]++ == 0) {
      if (copy->after.empty()) {
        // A reset draws 1 + cartridge RAM bytes (at most 2 KiB) from the
        // system RNG, and 2 per act of a mode selection from the
        // environment's; the other pasts check the counts.
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
      copy->console_of[key] = int16_t(copy->after.size());
      copy->after.push_back(whole.console);
      // Keys often share screens: each different pair is kept once.
      size_t k = 0;
      while (k * screens < copy->screens.size() &&
             std::memcmp(copy->screens.data() + k * screens, whole.pixels.data(), screens) != 0) {
        ++k;
      }
      if (k * screens == copy->screens.size()) {
        copy->screens.insert(copy->screens.end(), whole.pixels.begin(), whole.pixels.end());
      }
      copy->screens_of[key] = int16_t(k);
    }
    Past copied = past;
    ale_reset_or_copy(copied.console, s, copy->view(), copied.frames());
    if (!(whole == copied)) return nullptr;
  }
  bool any = false;
  for (size_t key = 0; key < keys; ++key) {
    if (seen[key] < 2) copy->console_of[key] = -1;
    any |= copy->console_of[key] >= 0;
  }
  return any ? copy : nullptr;
}

// Keeps each different byte string of `size` bytes once, in `kept`.
class Distinct {
 public:
  explicit Distinct(size_t size) : size_(size) {}

  size_t hash(const uint8_t* bytes) const {
    return std::hash<std::string_view>{}(
        std::string_view(reinterpret_cast<const char*>(bytes), size_));
  }
  //! The index in `kept` of a string equal to `bytes` (of hash `hash`),
  //! added when new.
  int32_t index(const uint8_t* bytes, size_t hash) {
    std::vector<int32_t>& same_hash = by_hash_[hash];
    for (const int32_t k : same_hash) {
      if (std::memcmp(kept.data() + size_t(k) * size_, bytes, size_) == 0) return k;
    }
    const auto k = int32_t(kept.size() / size_);
    kept.insert(kept.end(), bytes, bytes + size_);
    same_hash.push_back(k);
    return k;
  }

  std::vector<uint8_t> kept;

 private:
  size_t size_;
  std::unordered_map<size_t, std::vector<int32_t>> by_hash_;
};

// Adds to `copy` the consoles after each key's reset and its first acts
// (AleResetCopy): up to `acts` acts, FIRE for up to `fire_acts` of them,
// fewer FIRE acts where more would take over `max_bytes` (none if even one
// would). `screens`: the bytes of a pair of screens. The keys' runs share
// the machine's cores (Enduro: 36,000 acts).
void add_start_acts(ResetCopy& copy, const AleSetup& s, size_t screens, uint32_t fire_acts,
                    uint32_t acts, size_t max_bytes) {
  const size_t keys = ale_reset_copy_keys(copy.view());
  std::vector<size_t> copied_keys;
  for (size_t key = 0; key < keys; ++key) {
    if (copy.console_of[key] >= 0) copied_keys.push_back(key);
  }
  const size_t per_fire_acts = keys * acts;
  std::vector<int32_t> console_of(fire_acts * per_fire_acts, -1);
  std::vector<int32_t> screens_of(console_of.size(), -1);
  Distinct consoles(sizeof(AleCopiedState)), pairs(screens);
  std::mutex distinct;  // guards `consoles` and `pairs`
  // Key `key`'s run of acts with FIRE held for `f`.
  auto run = [&](uint32_t f, size_t key) {
    Past past{copy.after[size_t(copy.console_of[key])], std::vector<uint8_t>(screens)};
    std::memcpy(past.pixels.data(), copy.screens.data() + size_t(copy.screens_of[key]) * screens,
                screens);
    const size_t first = f * per_fire_acts + key * acts;
    for (uint32_t a = 0; a < acts; ++a) {
      if (a > 0) {
        const int action = a <= f ? int(Action::FIRE) : int(Action::NOOP);
        ale_act(past.console, s, past.frames(), action, 1.0f);
        if (ale_terminal(past.console)) return;  // a reset within the acts: they run
      }
      AleCopiedState state{};  // zero padding: equal states, equal bytes
      ale_take_copy(state, past.console);
      const auto* state_bytes = reinterpret_cast<const uint8_t*>(&state);
      const size_t state_hash = consoles.hash(state_bytes);
      const size_t pair_hash = pairs.hash(past.pixels.data());
      const std::lock_guard<std::mutex> lock(distinct);
      console_of[first + a] = consoles.index(state_bytes, state_hash);
      screens_of[first + a] = pairs.index(past.pixels.data(), pair_hash);
    }
  };
  const size_t workers =
      std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), copied_keys.size());
  uint32_t held = 0;
  for (uint32_t f = 0; f < fire_acts; ++f) {
    const size_t consoles_before = consoles.kept.size(), pairs_before = pairs.kept.size();
    std::atomic<size_t> next{0};
    std::vector<std::thread> threads;
    for (size_t w = 0; w < workers; ++w) {
      threads.emplace_back([&] {
        for (size_t k; (k = next++) < copied_keys.size();) run(f, copied_keys[k]);
      });
    }
    for (std::thread& thread : threads) thread.join();
    if (consoles.kept.size() + pairs.kept.size() > max_bytes) {
      // (Nothing is added after this: the lookups would find these.)
      consoles.kept.resize(consoles_before);
      pairs.kept.resize(pairs_before);
      break;
    }
    held = f + 1;
  }
  if (held == 0) return;
  copy.acts_after.resize(consoles.kept.size() / sizeof(AleCopiedState));
  std::memcpy(copy.acts_after.data(), consoles.kept.data(), consoles.kept.size());
  copy.acts_screens = std::move(pairs.kept);
  console_of.resize(held * per_fire_acts);
  screens_of.resize(held * per_fire_acts);
  copy.acts_console_of = std::move(console_of);
  copy.acts_screens_of = std::move(screens_of);
  copy.fire_acts = held;
  copy.acts = acts;
}

// The pasts for a trial by timer: for each TIA key that two pasts or more
// have, and each timer, two of those pasts with the system RNG at places
// whose draw picks that timer. The places are successive draws from
// `start`, which for a game that draws once per reset are places where
// later resets draw.
std::vector<Past> timer_pasts(const std::vector<Past>& pasts, const Mt19937& start) {
  std::vector<std::vector<Mt19937>> places(kRiotResetTimers);
  Mt19937 rng = start;
  for (uint32_t filled = 0, draws = 0; filled < kRiotResetTimers && draws < 100000; ++draws) {
    std::vector<Mt19937>& timer = places[riot_reset_timer_index(mt19937_peek(rng))];
    if (timer.size() < 2) {
      timer.push_back(rng);
      filled += timer.size() == 2;
    }
    mt19937_discard(rng, 1);
  }
  std::vector<std::vector<const Past*>> by_key(AleResetCopy::kTiaKeys);
  for (const Past& past : pasts) {
    AleConsole keyed = past.console;
    by_key[ale_reset_copy_key(AleResetCopy{}, keyed)].push_back(&past);
  }
  std::vector<Past> out;
  for (const std::vector<const Past*>& same_key : by_key) {
    if (same_key.size() < 2) continue;
    for (uint32_t timer = 0; timer < kRiotResetTimers; ++timer) {
      for (size_t r = 0; r < places[timer].size(); ++r) {
        out.push_back(*same_key[(timer + r) % same_key.size()]);
        out.back().console.system_rng = places[timer][r];
      }
    }
  }
  return out;
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

  std::shared_ptr<ResetCopy> copy = try_copy(s, pasts, false);
  // By timer where the timer is all a reset draws.
  if (!copy && mapper_ram_bytes(s.console.mapper) == 0) {
    copy = try_copy(s, timer_pasts(pasts, pasts.front().console.system_rng), true);
  }
  if (copy) {
    add_start_acts(*copy, s, pasts.front().pixels.size(), kCopiedStartFireActs, kCopiedStartActs,
                   kStartActsMaxBytes);
  }
  return copy;
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
