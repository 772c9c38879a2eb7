#include "cule/reset_copy.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "cule/thread_pool.hpp"
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

// A past's whole reset, watching what it reads and writes of RIOT RAM.
struct WatchedReset {
  Past whole;
  RamWatch watch{};
  ModeStatus status = ModeStatus::ok;
};

WatchedReset watched_reset(const AleSetup& s, const Past& past) {
  WatchedReset reset{past};
  AleSetup watched = s;
  watched.console.ram_watch = &reset.watch;
  reset.status = ale_reset(reset.whole.console, watched, reset.whole.frames());
  return reset;
}

// The whole resets of pasts[first, first + count), watched, on the pool.
template <class Pasts>
std::vector<WatchedReset> whole_resets(const AleSetup& s, const Pasts& pasts, size_t first,
                                       size_t count, ThreadPool& pool) {
  std::vector<WatchedReset> resets(count);
  pool.parallel_for(int(count),
                    [&](int p) { resets[size_t(p)] = watched_reset(s, pasts[first + size_t(p)]); });
  return resets;
}

// `copy` with only the consoles seen twice or more (`seen`), or null when
// none is.
std::shared_ptr<ResetCopy> seen_twice(const ResetCopy& copy, const std::vector<int>& seen) {
  auto kept = std::make_shared<ResetCopy>();
  kept->screens = copy.screens;
  kept->by_timer = copy.by_timer;
  kept->by_ram = copy.by_ram;
  kept->system_draws = copy.system_draws;
  kept->env_draws = copy.env_draws;
  kept->frames_counted = copy.frames_counted;
  kept->console_of.assign(copy.console_of.size(), -1);
  for (size_t key = 0; key < copy.console_of.size(); ++key) {
    int16_t* link = &kept->console_of[key];
    for (int k = copy.console_of[key]; k >= 0; k = copy.next_of[size_t(k)]) {
      if (seen[size_t(k)] < 2) continue;
      *link = int16_t(kept->after.size());
      kept->after.push_back(copy.after[size_t(k)]);
      kept->next_of.push_back(-1);
      link = &kept->next_of.back();
      kept->screens_of.push_back(copy.screens_of[size_t(k)]);
      for (uint32_t r = copy.reads_of[size_t(k)]; r < copy.reads_of[size_t(k) + 1]; ++r) {
        kept->read_at.push_back(copy.read_at[r]);
        kept->read_mask.push_back(copy.read_mask[r]);
        kept->read_value.push_back(copy.read_value[r]);
      }
      kept->reads_of.push_back(uint32_t(kept->read_at.size()));
      for (uint32_t r = copy.kept_of[size_t(k)]; r < copy.kept_of[size_t(k) + 1]; ++r) {
        kept->kept_at.push_back(copy.kept_at[r]);
      }
      kept->kept_of.push_back(uint32_t(kept->kept_at.size()));
    }
  }
  return kept->after.empty() ? nullptr : kept;
}

// Per RIOT RAM byte: a mask of its bits.
using RamBits = std::array<uint8_t, 128>;

// A RIOT RAM bit, as byte << 3 | bit, and its mask in its byte.
using RamBit = uint16_t;
constexpr uint8_t mask_of(RamBit bit) { return uint8_t(1u << (bit & 7u)); }
void flip(Past& past, RamBit bit) { past.console.machine.riot.ram[bit >> 3] ^= mask_of(bit); }
bool has(const RamBits& bits, RamBit bit) { return (bits[bit >> 3] & mask_of(bit)) != 0; }

// The values of the `steering` bits of the bytes `reset` read first, in
// `past`'s RAM (the bits a copy by RAM is keyed by).
RamBits steered_values(const Past& past, const WatchedReset& reset, const RamBits& steering) {
  RamBits values{};
  for (uint32_t i = 0; i < 128; ++i) {
    if (reset.watch.read_first[i]) values[i] = past.console.machine.riot.ram[i] & steering[i];
  }
  return values;
}

// The TIA key of a copy (AleResetCopy::kTiaKeys) that `past`'s reset takes.
uint32_t tia_key_of(const Past& past) {
  AleConsole keyed = past.console;
  return ale_reset_copy_key(AleResetCopy{}, keyed);
}

// The trial of a copy keyed by TIA state (and timer, `by_timer`; and the
// values of the `keyed_bits` of the bytes the reset reads first, when
// given): every past's whole reset against its key's console. A past whose
// reset reads RAM the past left there is tried again with those bytes' other
// bits at random values (8 times; once by timer or RAM, where the pasts are
// many). The copy of the consoles seen twice, or null.
std::shared_ptr<ResetCopy> try_copy(const AleSetup& s, const std::vector<Past>& pasts,
                                    bool by_timer, const RamBits* keyed_bits, ThreadPool& pool) {
  ResetCopy copy;
  copy.by_timer = by_timer;
  copy.by_ram = keyed_bits != nullptr;
  const RamBits key_bits = keyed_bits ? *keyed_bits : RamBits{};
  copy.console_of.assign(ale_reset_copy_keys(copy.view()), -1);
  std::vector<int> seen;  // per console
  const size_t screens = pasts.front().pixels.size();
  std::deque<Past> trial(pasts.begin(), pasts.end());  // (grows: its elements stay put)
  const int variants = by_timer || copy.by_ram ? 1 : 8;
  std::mt19937 rng(1);
  // The whole resets run on the pool, a few per thread at a time, so that a
  // trial that fails early stops soon.
  const size_t chunk = size_t(4 * pool.size());
  std::vector<WatchedReset> resets;  // of trial[first, first + resets.size())
  size_t first = 0;
  for (size_t p = 0; p < trial.size(); ++p) {
    const Past& past = trial[p];
    if (p == first + resets.size()) {
      first = p;
      resets = whole_resets(s, trial, p, std::min(chunk, trial.size() - p), pool);
    }
    const WatchedReset& reset = resets[p - first];
    if (reset.status != ModeStatus::ok) return nullptr;
    if (p < pasts.size()) {
      for (int v = 0; v < variants; ++v) {
        Past variant = past;
        for (uint32_t i = 0; i < 128; ++i) {
          if (!reset.watch.read_first[i] || key_bits[i] == 0xFF) continue;
          uint8_t& byte = variant.console.machine.riot.ram[i];
          byte = uint8_t((byte & key_bits[i]) | (uint8_t(rng()) & ~key_bits[i]));
        }
        if (!(variant == past)) trial.push_back(std::move(variant));
      }
    }
    // (A look at the timer may twist the RNG's words: on a copy of the past.)
    AleConsole keyed = past.console;
    const uint32_t key = ale_reset_copy_key(copy.view(), keyed);
    int k = ale_reset_copy_console(copy.view(), keyed);
    if (k < 0) {
      if (copy.after.empty()) {
        // A reset draws 1 + cartridge RAM bytes (at most 2 KiB) from the
        // system RNG, and 2 per act of a mode selection from the
        // environment's; the other pasts check the counts.
        constexpr uint32_t kDrawLimit = 1u << 20;
        const AleConsole& whole = reset.whole.console;
        const int64_t system_draws =
            draws_between(past.console.system_rng, whole.system_rng, kDrawLimit);
        const int64_t env_draws = draws_between(past.console.env_rng, whole.env_rng, kDrawLimit);
        if (system_draws < 0 || env_draws < 0) return nullptr;
        copy.system_draws = uint32_t(system_draws);
        copy.env_draws = uint32_t(env_draws);
        copy.frames_counted = uint32_t(whole.frame_number - past.console.frame_number);
      }
      // The key's consoles: a new one last.
      k = int(copy.after.size());
      if (k == INT16_MAX) return nullptr;
      int16_t* link = &copy.console_of[key];
      while (*link >= 0) link = &copy.next_of[size_t(*link)];
      *link = int16_t(k);
      copy.after.push_back(reset.whole.console);
      copy.next_of.push_back(-1);
      for (uint32_t i = 0; i < 128; ++i) {
        if (key_bits[i] && reset.watch.read_first[i]) {
          copy.read_at.push_back(uint8_t(i));
          copy.read_mask.push_back(key_bits[i]);
          copy.read_value.push_back(past.console.machine.riot.ram[i] & key_bits[i]);
        }
        if (!reset.watch.written[i]) copy.kept_at.push_back(uint8_t(i));
      }
      copy.reads_of.push_back(uint32_t(copy.read_at.size()));
      copy.kept_of.push_back(uint32_t(copy.kept_at.size()));
      // Consoles often share screens: each different pair is kept once.
      size_t pair = 0;
      while (pair * screens < copy.screens.size() &&
             std::memcmp(copy.screens.data() + pair * screens, reset.whole.pixels.data(),
                         screens) != 0) {
        ++pair;
      }
      if (pair * screens == copy.screens.size()) {
        copy.screens.insert(copy.screens.end(), reset.whole.pixels.begin(),
                            reset.whole.pixels.end());
      }
      copy.screens_of.push_back(int16_t(pair));
      seen.push_back(0);
    }
    ++seen[size_t(k)];
    Past copied = past;
    ale_reset_or_copy(copied.console, s, copy.view(), copied.frames());
    if (!(reset.whole == copied)) return nullptr;
  }
  return seen_twice(copy, seen);
}

// Whether `whole` (with `status`), the reset of `changed`, a past like
// `reset`'s but for some RAM bits, leaves anything else than `reset` left
// (the bytes the reset never wrote aside).
bool differs(const Past& whole, ModeStatus status, const Past& changed, const WatchedReset& reset) {
  Past expected = reset.whole;
  for (uint32_t i = 0; i < 128; ++i) {
    if (!reset.watch.written[i]) {
      expected.console.machine.riot.ram[i] = changed.console.machine.riot.ram[i];
    }
  }
  return status != reset.status || !(whole == expected);
}

// differs() of `changed`'s whole reset, run here.
bool changes_reset(const AleSetup& s, const Past& changed, const WatchedReset& reset) {
  Past whole = changed;
  const ModeStatus status = ale_reset(whole.console, s, whole.frames());
  return differs(whole, status, changed, reset);
}

// The search for the RAM bits that steer a game's reset, within a budget of
// resets: ale-py's games take 39 (Time Pilot) to 751 (Sir Lancelot), but a
// reset that sums many bytes, say, would take some 40,000.
class SteeringSearch {
 public:
  SteeringSearch(const AleSetup& s, ThreadPool& pool) : s_(s), pool_(pool) {}

  //! Adds to `steering` bits of `suspects` that steer `past`'s reset
  //! (`reset`), found by halving: a group of bits whose flips change what
  //! the reset leaves in one of kTries tries (the first flips them all, the
  //! others each a random part) holds one at least. Where neither half of
  //! such a group is found to, bits of each steer with the other's flipped;
  //! where none is found so either, or the budget is spent, all are added.
  void add(const Past& past, const WatchedReset& reset, const std::vector<RamBit>& suspects) {
    if (suspects.empty()) return;
    std::vector<Past> tries(suspects.size() == 1 ? 1 : kTries, past);
    if (resets_left < int(tries.size())) {
      set_all(suspects);
      return;
    }
    resets_left -= int(tries.size());
    for (size_t t = 0; t < tries.size(); ++t) {
      for (const RamBit bit : suspects) {
        if (t == 0 || rng_() & 1) flip(tries[t], bit);
      }
    }
    std::vector<uint8_t> steers(tries.size());
    pool_.parallel_for(int(tries.size()), [&](int t) {
      steers[size_t(t)] = changes_reset(s_, tries[size_t(t)], reset);
    });
    if (std::find(steers.begin(), steers.end(), 1) == steers.end()) return;
    if (suspects.size() == 1) {
      set_all(suspects);
      return;
    }
    const RamBits before = steering;
    const auto middle = suspects.begin() + std::ptrdiff_t(suspects.size() / 2);
    const std::vector<RamBit> halves[2] = {{suspects.begin(), middle}, {middle, suspects.end()}};
    for (const std::vector<RamBit>& half : halves) add(past, reset, half);
    if (steering != before) return;
    // Neither half alone: each half's bits with the other's flipped.
    for (int h = 0; h < 2 && resets_left > 0; ++h) {
      Past flipped = past;
      for (const RamBit bit : halves[1 - h]) flip(flipped, bit);
      --resets_left;
      add(flipped, watched_reset(s_, flipped), halves[h]);
    }
    if (steering != before) return;
    set_all(suspects);
  }

  //! `past` with each of `bits` flipped at random.
  Past flipped_at_random(const Past& past, const std::vector<RamBit>& bits) {
    Past flipped = past;
    for (const RamBit bit : bits) {
      if (rng_() & 1) flip(flipped, bit);
    }
    return flipped;
  }

  static constexpr int kTries = 4;
  RamBits steering{};
  int resets_left = 4000;

 private:
  void set_all(const std::vector<RamBit>& bits) {
    for (const RamBit bit : bits) steering[bit >> 3] |= mask_of(bit);
  }

  const AleSetup& s_;
  ThreadPool& pool_;
  std::mt19937 rng_{3};
};

// The RAM bits that steer a reset: bits of the bytes some past's reset
// (`resets`) reads first that, flipped, change what the reset leaves
// (SteeringSearch::add). Stack bytes, a score the reset reads to compare
// and overwrite, or the bits of a byte that the reset masks off vary in
// play and steer nothing. A bit may steer only at other values of the
// others: each past is then tried with the bits not found to steer at
// random values (kSteeringChecks tries, up to kSteeringRounds times while
// one changes the reset), and the bits behind a change are added. The
// trial checks the bits left out.
constexpr int kSteeringChecks = 4, kSteeringRounds = 4;
RamBits reads_that_steer_the_reset(const AleSetup& s, const std::vector<Past>& pasts,
                                   const std::vector<WatchedReset>& resets, ThreadPool& pool) {
  SteeringSearch search(s, pool);
  const RamBits& steering = search.steering;
  // The bits of the bytes `reset` read first that `steering` leaves out.
  auto suspects_of = [&](const WatchedReset& reset) {
    std::vector<RamBit> suspects;
    for (uint32_t i = 0; i < 128; ++i) {
      for (uint32_t bit = 0; bit < 8; ++bit) {
        const RamBit suspect = RamBit(i << 3 | bit);
        if (reset.watch.read_first[i] && !has(steering, suspect)) suspects.push_back(suspect);
      }
    }
    return suspects;
  };
  for (size_t p = 0; p < pasts.size(); ++p) {
    search.add(pasts[p], resets[p], suspects_of(resets[p]));
    for (int round = 0; round < kSteeringRounds; ++round) {
      const std::vector<RamBit> suspects = suspects_of(resets[p]);
      std::vector<Past> checks;
      for (int c = 0; c < kSteeringChecks; ++c) {
        checks.push_back(search.flipped_at_random(pasts[p], suspects));
      }
      std::vector<WatchedReset> check_resets(checks.size());
      std::vector<uint8_t> changed(checks.size());
      pool.parallel_for(int(checks.size()), [&](int c) {
        const WatchedReset& check = check_resets[size_t(c)] = watched_reset(s, checks[size_t(c)]);
        changed[size_t(c)] = differs(resets[p].whole, resets[p].status, pasts[p], check);
      });
      bool any = false;
      for (size_t c = 0; c < checks.size(); ++c) {
        if (!changed[c]) continue;
        any = true;
        // From the check back to the past: the bits it flipped.
        std::vector<RamBit> flipped;
        for (const RamBit bit : suspects) {
          const uint32_t at = bit >> 3u;
          const uint8_t differ =
              checks[c].console.machine.riot.ram[at] ^ pasts[p].console.machine.riot.ram[at];
          if ((differ & mask_of(bit)) != 0 && !has(steering, bit)) flipped.push_back(bit);
        }
        search.add(checks[c], check_resets[c], flipped);
      }
      if (!any) break;
    }
  }
  return steering;
}

// Whether a console that one of `pasts`' reset leaves, kept for its TIA key
// and the values of the `steering` bits of the bytes the reset reads first,
// would hold for one of `others` (whatever the timer).
bool would_hold_for_any(const std::vector<Past>& pasts, const std::vector<WatchedReset>& resets,
                        const RamBits& steering, const std::vector<Past>& others) {
  std::vector<uint32_t> keys;
  std::vector<RamBits> values;
  for (size_t p = 0; p < pasts.size(); ++p) {
    keys.push_back(tia_key_of(pasts[p]));
    values.push_back(steered_values(pasts[p], resets[p], steering));
  }
  for (const Past& other : others) {
    const uint32_t other_key = tia_key_of(other);
    for (size_t p = 0; p < pasts.size(); ++p) {
      if (keys[p] == other_key && steered_values(other, resets[p], steering) == values[p]) {
        return true;
      }
    }
  }
  return false;
}

// Keeps each different byte string of `size` bytes once, in `kept`.
class Distinct {
 public:
  explicit Distinct(size_t size) : size_(size) {}

  //! The bytes of each string.
  size_t string_bytes() const { return size_; }

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

// A console and screens, by their indices in StartActs::consoles and
// StartActs::pairs (-1: none, the run ended).
using Place = std::pair<int32_t, int32_t>;

// The runs of a copy's consoles' first acts (add_start_acts), side by side.
// The runs meet: those of one console share their first acts whatever the
// FIRE count, and the runs of different consoles often come to the same
// console and screens (most of them, in the games whose copies hold many
// consoles: benchmarks/RESULTS.md). Acts depend on nothing else (see
// AleResetCopy), so each act from a place runs once, whichever runs take
// it, on the pool.
class StartActs {
 public:
  StartActs(const ResetCopy& copy, const AleSetup& s, size_t screens, ThreadPool& pool)
      : consoles(ale_copied_state_bytes(s.console.mapper)),
        pairs(screens),
        copy_(copy),
        s_(s),
        screens_(screens),
        pool_(pool),
        // Where the reset left RAM bytes alone, the acts are watched: a copy
        // would put the trial's values in the bytes they write.
        watched_(!copy.kept_at.empty()),
        chunk_(size_t(4 * pool.size())),
        pasts_(chunk_, Past{copy.after.front(), std::vector<uint8_t>(screens)}),
        ran_(chunk_),
        taken_(chunk_) {}

  //! The place of the copy's console k, where its runs start.
  Place start(size_t k) {
    Past& past = pasts_.front();
    past.console = copy_.after[k];
    std::memcpy(past.pixels.data(), copy_.screens.data() + size_t(copy_.screens_of[k]) * screens_,
                screens_);
    take(taken_.front(), past);
    return place(taken_.front(), past.pixels.data());
  }

  //! Moves each run of console k, at at[k], on by an act, FIRE or NOOP. A
  //! run ends where the game ends or the act writes a RAM byte the reset
  //! kept (these acts run too).
  void turn(std::vector<Place>& at, bool fire) {
    // The acts that no run went on from before: new ones, and ones that
    // ended only runs (their places were not kept); and the runs that take
    // each.
    std::vector<Act> to_run;
    std::vector<std::vector<size_t>> takers;
    for (size_t k = 0; k < at.size(); ++k) {
      if (at[k].first < 0) continue;
      const Act act{at[k], fire};
      const auto [it, added] = outcomes_.try_emplace(act.key());
      Outcome& outcome = it->second;
      if (added || (outcome.to.first < 0 && outcome.queued < 0 && !ends(k, outcome))) {
        outcome.queued = int32_t(to_run.size());
        to_run.push_back(act);
        takers.emplace_back();
      }
      if (outcome.queued >= 0) takers[size_t(outcome.queued)].push_back(k);
    }
    for (size_t first = 0; first < to_run.size(); first += chunk_) {
      const size_t count = std::min(chunk_, to_run.size() - first);
      pool_.parallel_for(int(count), [&](int m) { run(to_run[first + size_t(m)], size_t(m)); });
      for (size_t m = 0; m < count; ++m) {
        Outcome& outcome = outcomes_[to_run[first + m].key()] = ran_[m];
        // A place is kept where a run goes on from it.
        for (const size_t k : takers[first + m]) {
          if (outcome.to.first < 0 && !ends(k, outcome)) {
            outcome.to = place(taken_[m], pasts_[m].pixels.data());
          }
        }
      }
    }
    for (size_t k = 0; k < at.size(); ++k) {
      if (at[k].first < 0) continue;
      const Outcome& outcome = outcomes_.at(Act{at[k], fire}.key());
      at[k] = ends(k, outcome) ? Place{-1, -1} : outcome.to;
    }
  }

  Distinct consoles;  //!< each different console once (AleCopiedBytes)
  Distinct pairs;     //!< each different pair of screens once

 private:
  // FIRE or NOOP from a place.
  struct Act {
    Place from;
    bool fire;
    uint64_t key() const {
      return uint64_t(uint32_t(from.first)) << 33 | uint64_t(uint32_t(from.second)) << 1 |
             uint64_t(fire);
    }
  };
  // Where an act leads.
  struct Outcome {
    Place to{-1, -1};                    // kept where a run goes on from it
    bool over = false;                   // the game ended (a reset within the acts: they run)
    int32_t queued = -1;                 // its index among this turn's acts to run (again)
    std::array<uint8_t, 128> written{};  // the RAM bytes it wrote, where watched
  };
  // A console as the copy keeps it, and the hashes of it and its screens.
  struct Taken {
    AleCopiedState state{};  // its own padding stays zero: equal states, equal bytes
    size_t state_hash = 0, pixels_hash = 0;
  };

  bool ends(size_t k, const Outcome& outcome) const {
    bool hit = outcome.over;
    for (uint32_t r = copy_.kept_of[k]; r < copy_.kept_of[k + 1] && !hit; ++r) {
      hit = outcome.written[copy_.kept_at[r]] != 0;
    }
    return hit;
  }
  void take(Taken& taken, const Past& past) const {
    ale_take_copy(taken.state, past.console);
    taken.state_hash = consoles.hash(reinterpret_cast<const uint8_t*>(&taken.state));
    taken.pixels_hash = pairs.hash(past.pixels.data());
  }
  Place place(const Taken& taken, const uint8_t* pixels) {
    return Place{consoles.index(reinterpret_cast<const uint8_t*>(&taken.state), taken.state_hash),
                 pairs.index(pixels, taken.pixels_hash)};
  }
  // Runs `act` on the chunk's Past m, a console of the copy. Of the fields
  // the copy does not keep, acts read only the mode and difficulty, which
  // all its consoles share (every past is built with the same), and not the
  // RNGs or frame counter.
  void run(const Act& act, size_t m) {
    Past& past = pasts_[m];
    const uint32_t bytes = uint32_t(consoles.string_bytes());
    ale_take_copy(past.console,
                  AleCopiedBytes{consoles.kept.data() + size_t(act.from.first) * bytes, bytes});
    std::memcpy(past.pixels.data(), pairs.kept.data() + size_t(act.from.second) * screens_,
                screens_);
    RamWatch watch{};
    AleSetup setup = s_;
    if (watched_) setup.console.ram_watch = &watch;
    ale_act(past.console, setup, past.frames(), act.fire ? int(Action::FIRE) : int(Action::NOOP),
            1.0f);
    Outcome& outcome = ran_[m];
    outcome.over = ale_terminal(past.console);
    std::memcpy(outcome.written.data(), watch.written, sizeof watch.written);
    if (!outcome.over) take(taken_[m], past);
  }

  const ResetCopy& copy_;
  const AleSetup& s_;
  const size_t screens_;
  ThreadPool& pool_;
  const bool watched_;
  std::unordered_map<uint64_t, Outcome> outcomes_;  // by Act::key
  // The acts run a chunk at a time, each on a Past of its own.
  const size_t chunk_;
  std::vector<Past> pasts_;
  std::vector<Outcome> ran_;
  std::vector<Taken> taken_;
};

// Adds to `copy` the consoles after each of its consoles' reset and first
// acts (AleResetCopy): up to `acts` acts, FIRE for up to `fire_acts` of
// them, fewer FIRE acts where more would take over `max_bytes` (none if even
// one would). `screens`: the bytes of a pair of screens.
void add_start_acts(ResetCopy& copy, const AleSetup& s, size_t screens, uint32_t fire_acts,
                    uint32_t acts, size_t max_bytes, ThreadPool& pool) {
  const size_t copied = copy.after.size();
  const size_t per_fire_acts = copied * acts;
  std::vector<int32_t> console_of(fire_acts * per_fire_acts, -1);
  std::vector<int32_t> screens_of(console_of.size(), -1);
  StartActs runs(copy, s, screens, pool);
  Distinct& consoles = runs.consoles;
  Distinct& pairs = runs.pairs;
  std::vector<Place> start(copied);
  for (size_t k = 0; k < copied; ++k) start[k] = runs.start(k);
  uint32_t held = 0;
  for (uint32_t f = 0; f < fire_acts; ++f) {
    const size_t consoles_before = consoles.kept.size(), pairs_before = pairs.kept.size();
    std::vector<Place> at = start;  // console k's run with FIRE held for f acts
    for (uint32_t a = 0; a < acts; ++a) {
      if (a > 0) runs.turn(at, a <= f);
      for (size_t k = 0; k < copied; ++k) {
        console_of[f * per_fire_acts + k * acts + a] = at[k].first;
        screens_of[f * per_fire_acts + k * acts + a] = at[k].second;
      }
    }
    if (consoles.kept.size() + pairs.kept.size() > max_bytes) {
      // (Nothing is added after this: the lookups would find these.)
      consoles.kept.resize(consoles_before);
      pairs.kept.resize(pairs_before);
      break;
    }
    held = f + 1;
  }
  if (held == 0) return;
  // (Kept for the process: no spare capacity, e.g. of a FIRE count that
  // went over max_bytes.)
  consoles.kept.shrink_to_fit();
  pairs.kept.shrink_to_fit();
  copy.acts_state_bytes = uint32_t(consoles.string_bytes());
  copy.acts_after = std::move(consoles.kept);
  copy.acts_screens = std::move(pairs.kept);
  console_of.resize(held * per_fire_acts);
  screens_of.resize(held * per_fire_acts);
  copy.acts_console_of = std::move(console_of);
  copy.acts_screens_of = std::move(screens_of);
  copy.fire_acts = held;
  copy.acts = acts;
}

// The pasts for a trial by timer: for each TIA key that two pasts or more
// have, and each timer, `per_timer` of those pasts (all of them, at most),
// taken in turn, with the system RNG at places whose draw picks that timer;
// where `set_of` gives each past a set, `per_timer` of each set's pasts of
// the key. The places are successive draws from `start`, which for a game
// that draws once per reset are places where later resets draw.
std::vector<Past> timer_pasts(const std::vector<Past>& pasts, const Mt19937& start,
                              size_t per_timer, const std::vector<uint32_t>& set_of = {}) {
  constexpr size_t kPlaces = 2;
  std::vector<std::vector<Mt19937>> places(kRiotResetTimers);
  Mt19937 rng = start;
  for (uint32_t filled = 0, draws = 0; filled < kRiotResetTimers && draws < 100000; ++draws) {
    std::vector<Mt19937>& timer = places[riot_reset_timer_index(mt19937_peek(rng))];
    if (timer.size() < kPlaces) {
      timer.push_back(rng);
      filled += timer.size() == kPlaces;
    }
    mt19937_discard(rng, 1);
  }
  std::vector<std::vector<size_t>> by_key(AleResetCopy::kTiaKeys);
  for (size_t p = 0; p < pasts.size(); ++p) by_key[tia_key_of(pasts[p])].push_back(p);
  std::vector<Past> out;
  for (const std::vector<size_t>& same_key : by_key) {
    if (same_key.size() < 2) continue;
    std::map<uint32_t, std::vector<size_t>> sets;
    for (const size_t p : same_key) sets[set_of.empty() ? 0 : set_of[p]].push_back(p);
    for (uint32_t timer = 0; timer < kRiotResetTimers; ++timer) {
      if (places[timer].empty()) continue;
      for (const auto& [set, same_set] : sets) {
        for (size_t r = 0; r < std::min(per_timer, same_set.size()); ++r) {
          out.push_back(pasts[same_set[(timer + r) % same_set.size()]]);
          out.back().console.system_rng = places[timer][r % places[timer].size()];
        }
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
  // Consoles rebuilt from successive seeds and played for frames[i] each,
  // the last until a game is over when `last_until_over`, on the pool.
  ThreadPool pool;
  auto played = [&](const std::vector<int>& frames, bool last_until_over) {
    std::vector<Past> out(frames.size());
    // The longest first: the pool's threads take them in turn.
    std::vector<int> longest_first(frames.size());
    std::iota(longest_first.begin(), longest_first.end(), 0);
    std::stable_sort(longest_first.begin(), longest_first.end(),
                     [&](int a, int b) { return frames[size_t(a)] > frames[size_t(b)]; });
    pool.parallel_for(int(frames.size()), [&](int j) {
      const int i = longest_first[size_t(j)];
      out[size_t(i)] = rebuilt(prototype, seed + uint32_t(i), mode, difficulty);
      const bool until_over = last_until_over && size_t(i) + 1 == frames.size();
      play(out[size_t(i)], s, seed + uint32_t(i), frames[size_t(i)], until_over);
    });
    seed += uint32_t(frames.size());
    return out;
  };
  // Four pasts of play, and a game just over (or 3,000 frames on).
  for (Past& past : played({300, 301, 1500, 1501, 3000}, true)) pasts.push_back(std::move(past));
  Past over = pasts.back();
  std::mt19937 rng(seed);
  for (uint8_t& byte : over.console.machine.riot.ram) byte = uint8_t(rng());
  const size_t random_ram = pasts.size();
  pasts.push_back(over);
  for (int frames : {8, 37}) {  // early in an episode
    Past early = pasts[2];
    play(early, s, seed++, frames, false);
    pasts.push_back(early);
  }
  // Played pasts with the system RNG where the 3rd to 6th resets draw: other
  // starting timers.
  const uint32_t draws_per_reset = 1 + mapper_ram_bytes(s.console.mapper);
  for (uint32_t later = 2; later < 6; ++later) {
    Past past = pasts[1 + later];
    mt19937_discard(past.console.system_rng, later * draws_per_reset);
    pasts.push_back(past);
  }

  const Mt19937& start = pasts.front().console.system_rng;
  std::shared_ptr<ResetCopy> copy = try_copy(s, pasts, false, nullptr, pool);
  // By timer, and by the RAM the reset reads, where the timer is all a reset
  // draws.
  if (mapper_ram_bytes(s.console.mapper) == 0) {
    if (!copy) copy = try_copy(s, timer_pasts(pasts, start, 2), true, nullptr, pool);
    if (!copy) {
      // More pasts of play: a console holds for the RAM values of its pasts.
      // (Those of the past of random RAM are values no play reaches.)
      std::vector<Past> ram_pasts = pasts;
      ram_pasts.erase(ram_pasts.begin() + std::ptrdiff_t(random_ram));
      for (Past& past : played({60, 150, 400, 800, 1200, 2400}, false)) {
        ram_pasts.push_back(std::move(past));
      }
      // And pasts of play held out of the trial: a copy that none of them
      // would take costs memory and set-up time for nothing.
      const std::vector<Past> held_out =
          played({100, 250, 500, 700, 1000, 1300, 1700, 2000}, false);
      const std::vector<WatchedReset> ram_resets =
          whole_resets(s, ram_pasts, 0, ram_pasts.size(), pool);
      const RamBits steering = reads_that_steer_the_reset(s, ram_pasts, ram_resets, pool);
      if (would_hold_for_any(ram_pasts, ram_resets, steering, held_out)) {
        copy = try_copy(s, ram_pasts, false, &steering, pool);
        if (!copy) {
          // Each timer from two pasts of each set of steering values, in
          // turn.
          std::map<RamBits, uint32_t> sets;
          std::vector<uint32_t> set_of;
          for (size_t p = 0; p < ram_pasts.size(); ++p) {
            const RamBits values = steered_values(ram_pasts[p], ram_resets[p], steering);
            set_of.push_back(sets.emplace(values, uint32_t(sets.size())).first->second);
          }
          copy = try_copy(s, timer_pasts(ram_pasts, start, 2, set_of), true, &steering, pool);
        }
      }
      const bool taken =
          copy && std::any_of(held_out.begin(), held_out.end(), [&](const Past& past) {
            AleConsole look = past.console;
            return ale_reset_copy_console(copy->view(), look) >= 0;
          });
      if (!taken) copy = nullptr;
    }
  }
  if (copy) {
    add_start_acts(*copy, s, pasts.front().pixels.size(), kCopiedStartFireActs, kCopiedStartActs,
                   kStartActsMaxBytes, pool);
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
