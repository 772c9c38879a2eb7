// cule::VecEnv on the CPU: results independent of the thread count,
// clone/restore, sticky actions, the area resize against an exact area mean,
// and every input check. Parity with ale-py's AtariVectorEnv is
// tests/python/test_vector_env.py.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cule/error.hpp"
#include "cule/reset_copy.hpp"
#include "cule/vec_env.hpp"
#include "kernels/preprocess.hpp"
#include "testdata.hpp"

namespace cule {
namespace {

Rom tetris() { return Rom::load(testing::testdata_path("roms/tetris.bin")); }

// Everything a step reports, for comparing runs.
struct Outputs {
  std::vector<uint8_t> observations, terminated, truncated;
  std::vector<float> rewards;
  std::vector<int32_t> lives, episode_frames;
  bool operator==(const Outputs& o) const {
    return observations == o.observations && terminated == o.terminated &&
           truncated == o.truncated && rewards == o.rewards && lives == o.lives &&
           episode_frames == o.episode_frames;
  }
};

Outputs outputs(const VecEnv& env) {
  const size_t n = size_t(env.num_envs());
  Outputs o;
  o.observations.assign(env.observations(),
                        env.observations() + n * size_t(env.observation_bytes()));
  o.terminated.assign(env.terminated(), env.terminated() + n);
  o.truncated.assign(env.truncated(), env.truncated() + n);
  o.rewards.assign(env.rewards(), env.rewards() + n);
  o.lives.assign(env.lives(), env.lives() + n);
  o.episode_frames.assign(env.episode_frame_numbers(), env.episode_frame_numbers() + n);
  return o;
}

// Plays `steps` steps of random actions (the same for every run) and
// returns the outputs after each.
std::vector<Outputs> play(VecEnv& env, int steps, uint32_t action_seed = 7) {
  std::mt19937 rng(action_seed);
  std::vector<Outputs> trace;
  std::vector<int32_t> actions(size_t(env.num_envs()));
  for (int t = 0; t < steps; ++t) {
    for (int32_t& a : actions) a = int32_t(rng() % env.action_set().size());
    env.step(actions.data());
    trace.push_back(outputs(env));
  }
  return trace;
}

EnvConfig busy_config(int threads) {
  EnvConfig c;
  c.num_envs = 6;
  c.num_threads = threads;
  c.repeat_action_probability = 0.25f;
  c.noop_max = 30;
  c.seed = 11;
  c.max_num_frames_per_episode = 600;  // truncations and resets within the run
  return c;
}

TEST(VecEnv, ResultsDoNotDependOnTheThreadCount) {
  VecEnv one(tetris(), busy_config(1));
  VecEnv two(tetris(), busy_config(2));
  VecEnv three(tetris(), busy_config(3));
  EXPECT_EQ(one.num_threads(), 1);
  EXPECT_EQ(three.num_threads(), 3);
  const auto a = play(one, 400), b = play(two, 400), c = play(three, 400);
  ASSERT_EQ(a.size(), b.size());
  int truncations = 0;
  for (size_t t = 0; t < a.size(); ++t) {
    ASSERT_TRUE(a[t] == b[t]) << "step " << t;
    ASSERT_TRUE(a[t] == c[t]) << "step " << t;
    for (uint8_t x : a[t].truncated) truncations += x;
  }
  EXPECT_GT(truncations, 0) << "the run should cross the 600-frame limit";
}

TEST(VecEnv, SendAndRecvGiveWhatStepGives) {
  VecEnv stepped(tetris(), busy_config(2));
  VecEnv sent(tetris(), busy_config(2));
  std::mt19937 rng(3);
  std::vector<int32_t> actions(size_t(stepped.num_envs()));
  for (int t = 0; t < 200; ++t) {
    for (int32_t& a : actions) a = int32_t(rng() % stepped.action_set().size());
    stepped.step(actions.data());
    sent.send(actions.data());
    std::fill(actions.begin(), actions.end(), 0);  // send() took its own copy
    sent.recv();
    ASSERT_TRUE(outputs(stepped) == outputs(sent)) << "step " << t;
  }
}

TEST(VecEnv, SendAndRecvOutOfOrderAreErrors) {
  VecEnv env(tetris(), busy_config(1));
  EXPECT_THROW(env.recv(), Error);
  std::vector<int32_t> actions(size_t(env.num_envs()), 0);
  env.send(actions.data());
  EXPECT_THROW(env.send(actions.data()), Error);
  env.recv();
  actions[1] = 1000;
  EXPECT_THROW(env.send(actions.data()), Error);  // checked before anything runs
  EXPECT_THROW(env.recv(), Error);
}

TEST(VecEnv, SeedsGiveDifferentButRepeatableEpisodes) {
  VecEnv env(tetris(), busy_config(2));
  const auto first = play(env, 50);
  // Environments differ in seed, so sticky actions differ between them.
  const Outputs& last = first.back();
  const size_t bytes = size_t(env.observation_bytes());
  bool some_differ = false;
  for (int i = 1; i < env.num_envs(); ++i) {
    some_differ |= !std::equal(last.observations.begin(), last.observations.begin() + long(bytes),
                               last.observations.begin() + long(i * bytes));
  }
  EXPECT_TRUE(some_differ);
  // Reseeding with the first seeds replays the same run.
  std::vector<uint64_t> seeds;
  for (int i = 0; i < env.num_envs(); ++i) seeds.push_back(11 + uint64_t(i));
  env.reset(nullptr, seeds.data());
  const auto again = play(env, 50);
  for (size_t t = 0; t < first.size(); ++t) ASSERT_TRUE(first[t] == again[t]) << "step " << t;
}

TEST(VecEnv, RestoreReplaysTheSameFuture) {
  VecEnv env(tetris(), busy_config(2));
  play(env, 30);
  const auto snapshot = env.clone_state();
  const auto future = play(env, 200, 99);
  env.restore_state(*snapshot);
  const auto replay = play(env, 200, 99);
  for (size_t t = 0; t < future.size(); ++t) ASSERT_TRUE(future[t] == replay[t]) << "step " << t;
}

TEST(VecEnv, RestoringSomeEnvironmentsLeavesTheOthers) {
  VecEnv env(tetris(), busy_config(2));
  play(env, 20);
  const std::vector<uint8_t> mask = {1, 0, 0, 0, 0, 0};
  const auto snapshot = env.clone_state(mask.data());
  const Outputs at_clone = outputs(env);
  play(env, 20);
  const Outputs later = outputs(env);
  env.restore_state(*snapshot);
  const Outputs restored = outputs(env);
  const size_t bytes = size_t(env.observation_bytes());
  EXPECT_TRUE(std::equal(restored.observations.begin(), restored.observations.begin() + long(bytes),
                         at_clone.observations.begin()));
  EXPECT_TRUE(std::equal(restored.observations.begin() + long(bytes), restored.observations.end(),
                         later.observations.begin() + long(bytes)));
  VecEnv other(tetris(), busy_config(1));
  EXPECT_THROW(other.restore_state(*snapshot), Error);
}

TEST(VecEnv, CertainStickyActionsRepeatTheFirstActionForever) {
  // With probability 1 every frame keeps the previous one's action: NOOP,
  // the action a reset leaves behind. So any actions play as NOOPs.
  EnvConfig sticky;
  sticky.num_envs = 2;
  sticky.repeat_action_probability = 1.0f;
  sticky.noop_max = 0;
  sticky.use_fire_reset = false;
  VecEnv env(tetris(), sticky);
  EnvConfig plain = sticky;
  plain.repeat_action_probability = 0.0f;
  VecEnv noops(tetris(), plain);
  const std::vector<int32_t> zero(2, 0);
  std::mt19937 rng(3);
  for (int t = 0; t < 100; ++t) {
    std::vector<int32_t> actions = {int32_t(rng() % env.action_set().size()),
                                    int32_t(rng() % env.action_set().size())};
    env.step(actions.data());
    noops.step(zero.data());
    ASSERT_TRUE(outputs(env) == outputs(noops)) << "step " << t;
  }
}

// By default a step draws only the frames it observes and runs again,
// drawing all, when the skipped drawing could show; so every output, screen
// and RAM must equal drawing every frame, as ALE does.
TEST(VecEnv, DrawingOnlyObservedFramesChangesNothing) {
  EnvConfig v5 = EnvConfig::v5();
  v5.num_envs = 3;
  v5.max_num_frames_per_episode = 500;
  EnvConfig odd_skip = busy_config(2);
  odd_skip.frameskip = 5;
  odd_skip.obs_type = ObsType::rgb;
  odd_skip.maxpool = false;
  odd_skip.autoreset_mode = AutoresetMode::same_step;
  EnvConfig ram = busy_config(1);
  ram.frameskip = 3;
  ram.obs_type = ObsType::ram;
  for (EnvConfig config : {busy_config(2), v5, odd_skip, ram}) {
    SCOPED_TRACE("frameskip " + std::to_string(config.frameskip));
    VecEnv observed_only(tetris(), config);
    config.draw_all_frames = true;
    VecEnv all_drawn(tetris(), config);
    std::mt19937 rng(5);
    std::vector<int32_t> actions(size_t(config.num_envs));
    for (int t = 0; t < 200; ++t) {
      for (int32_t& a : actions) a = int32_t(rng() % observed_only.action_set().size());
      observed_only.step(actions.data());
      all_drawn.step(actions.data());
      ASSERT_TRUE(outputs(observed_only) == outputs(all_drawn)) << "step " << t;
      for (int i = 0; i < config.num_envs; ++i) {
        const size_t screen_bytes = size_t(observed_only.screen_height()) * 160;
        ASSERT_TRUE(std::equal(observed_only.screen(i), observed_only.screen(i) + screen_bytes,
                               all_drawn.screen(i)))
            << "step " << t << " env " << i;
        ASSERT_TRUE(std::equal(observed_only.ram(i), observed_only.ram(i) + 128, all_drawn.ram(i)))
            << "step " << t << " env " << i;
      }
    }
  }
}

Rom catch_cartridge() { return Rom::load(std::string(CULE_CARTRIDGE_DIR) + "/catch.bin"); }

// A batch of two games plays each environment as a batch of its game alone
// would, given that environment's seed.
TEST(VecEnv, SeveralGamesPlayAsTheirOwnBatches) {
  EnvConfig config = busy_config(2);
  config.num_envs = 5;
  config.full_action_space = true;
  VecEnv both({tetris(), catch_cartridge()}, config);
  EXPECT_EQ(both.game(), "tetris+catch");
  EXPECT_EQ(both.games(), (std::vector<std::string>{"tetris", "catch"}));
  const std::vector<int> game_of = {0, 0, 1, 1, 1};  // runs of 5 * g / 2 envs
  for (int i = 0; i < 5; ++i) EXPECT_EQ(both.game_of(i), game_of[size_t(i)]);
  config.num_envs = 2;
  VecEnv tetris_alone(tetris(), config);
  config.num_envs = 3;
  config.seed += 2;  // environment 2 of the pair has seed + 2
  VecEnv catch_alone(catch_cartridge(), config);

  std::mt19937 rng(9);
  std::vector<int32_t> actions(5);
  int rewarded = 0;
  for (int t = 0; t < 300; ++t) {
    for (int32_t& a : actions) a = int32_t(rng() % kNumActions);
    both.step(actions.data());
    tetris_alone.step(actions.data());
    catch_alone.step(actions.data() + 2);
    const Outputs pair = outputs(both), first = outputs(tetris_alone),
                  second = outputs(catch_alone);
    const size_t bytes = size_t(both.observation_bytes());
    ASSERT_TRUE(
        std::equal(first.observations.begin(), first.observations.end(), pair.observations.begin()))
        << "step " << t;
    ASSERT_TRUE(std::equal(second.observations.begin(), second.observations.end(),
                           pair.observations.begin() + long(2 * bytes)))
        << "step " << t;
    for (int i = 0; i < 5; ++i) {
      const Outputs& alone = i < 2 ? first : second;
      const size_t k = size_t(i < 2 ? i : i - 2);
      ASSERT_EQ(pair.rewards[size_t(i)], alone.rewards[k]) << "step " << t << " env " << i;
      ASSERT_EQ(pair.terminated[size_t(i)], alone.terminated[k]) << "step " << t << " env " << i;
      ASSERT_EQ(pair.truncated[size_t(i)], alone.truncated[k]) << "step " << t << " env " << i;
      ASSERT_EQ(pair.lives[size_t(i)], alone.lives[k]) << "step " << t << " env " << i;
      ASSERT_EQ(pair.episode_frames[size_t(i)], alone.episode_frames[k]) << "step " << t;
      rewarded += pair.rewards[size_t(i)] != 0.0f;
    }
  }
  EXPECT_GT(rewarded, 0) << "catch gives rewards: the run should have some";
}

// Every byte of two environments: console (RNGs and frame counters
// included), bookkeeping, frame buffers, captured frames and observation.
bool same_environment(const VecEnv::Snapshot::Env& a, const VecEnv::Snapshot::Env& b) {
  return std::memcmp(&a.console, &b.console, sizeof a.console) == 0 &&
         std::memcmp(&a.episode, &b.episode, sizeof a.episode) == 0 && a.pixels == b.pixels &&
         a.captured == b.captured && a.observation == b.observation;
}

// Starting episodes from a copy of the reset's result (cule/reset_copy.hpp)
// leaves every environment exactly as ALE's whole reset does.
TEST(VecEnv, CopiedResetsLeaveWhatFullResetsLeave) {
  EnvConfig config = busy_config(2);
  config.max_num_frames_per_episode = 200;  // a truncation every 50 steps
  for (const Rom& rom : {tetris(), catch_cartridge()}) {
    SCOPED_TRACE(rom.name());
    VecEnv copied(rom, config);
    EnvConfig full_config = config;
    full_config.run_full_resets = true;
    VecEnv full(rom, full_config);
    EXPECT_FALSE(full.resets_copied());
    EXPECT_THROW(full.resets_copied(1), Error);  // one game
    if (rom.name() == "catch") {
      // roms/catch.asm clears the TIA and RAM first and seeds its LFSR with a
      // constant: nothing of the past reaches a new game.
      EXPECT_TRUE(copied.resets_copied());
    }
    std::mt19937 rng(3);
    std::vector<int32_t> actions(size_t(config.num_envs));
    int resets = 0;
    for (int t = 0; t < 150; ++t) {
      for (int32_t& a : actions) a = int32_t(rng() % copied.action_set().size());
      copied.step(actions.data());
      full.step(actions.data());
      ASSERT_TRUE(outputs(copied) == outputs(full)) << "step " << t;
      const auto a = copied.clone_state(), b = full.clone_state();
      for (int i = 0; i < config.num_envs; ++i) {
        ASSERT_TRUE(same_environment(a->state[size_t(i)], b->state[size_t(i)]))
            << "step " << t << " env " << i;
        resets += a->state[size_t(i)].episode.needs_reset;
      }
    }
    EXPECT_GE(resets, 2 * config.num_envs) << "the run should reset each environment twice";
  }
}

// An episode's start taken from the copy of the consoles after a reset and
// its first acts (FIRE held for a few frames, then no-ops; cule/reset_copy.hpp)
// leaves every environment, RNGs and sticky-action draws included, exactly
// as running those acts after ALE's whole reset does. Games with FIRE resets
// and without, keyed by TIA state and by timer, one whose reset keeps RAM
// (Seaquest); the ale-py ones where its ROMs are installed.
TEST(VecEnv, CopiedEpisodeStartsLeaveWhatRunningThemLeaves) {
  std::vector<Rom> roms{catch_cartridge()};
  const std::filesystem::path ale = testing::ale_roms_dir();
  for (const char* game : {"breakout", "enduro", "ms_pacman", "seaquest"}) {
    if (!ale.empty()) roms.push_back(Rom::load((ale / (std::string(game) + ".bin")).string()));
  }
  EnvConfig config = busy_config(2);
  config.num_envs = 24;
  for (const Rom& rom : roms) {
    SCOPED_TRACE(rom.name());
    const std::shared_ptr<const ResetCopy> copy = find_reset_copy(Console(rom), -1, -1);
    ASSERT_TRUE(copy != nullptr);
    ASSERT_EQ(copy->acts, kCopiedStartActs) << "the copy should hold the episodes' first acts";
    ASSERT_EQ(copy->fire_acts, kCopiedStartFireActs);
    VecEnv copied(rom, config);
    EnvConfig full_config = config;
    full_config.run_full_resets = true;
    VecEnv full(rom, full_config);
    std::mt19937 rng(5);
    std::vector<int32_t> actions(size_t(config.num_envs));
    for (int round = 0; round < 12; ++round) {
      // A step or two in between: the next reset's TIA key (frame parity) varies.
      for (int t = 0; t <= round % 2; ++t) {
        for (int32_t& a : actions) a = int32_t(rng() % copied.action_set().size());
        copied.step(actions.data());
        full.step(actions.data());
      }
      copied.reset();
      full.reset();
      ASSERT_TRUE(outputs(copied) == outputs(full)) << "reset " << round;
      const auto a = copied.clone_state(), b = full.clone_state();
      for (int i = 0; i < config.num_envs; ++i) {
        ASSERT_TRUE(same_environment(a->state[size_t(i)], b->state[size_t(i)]))
            << "reset " << round << " env " << i;
      }
    }
  }
  if (ale.empty()) GTEST_SKIP() << "catch only; " << testing::kNoAleRoms;
}

// Games whose reset reads RAM the past left there: copies in which the
// bytes the reset never writes keep their values (Seaquest, Venture, by
// timer), and copies that hold only for the values of the bits that steer
// the reset, in the bytes it read first (Kung-Fu Master, Time Pilot, Ice
// Hockey, by timer too; Yars' Revenge). From consoles of many pasts of
// play, a reset taken from the copy where one holds leaves exactly what
// ALE's whole reset leaves; and the copies by RAM hold for a quarter of
// those resets at least (keyed by every bit their reset reads first, as
// they were, Kung-Fu Master's held for 15 of 87 such resets, Ice Hockey's
// for 21 and Yars' Revenge's for 2).
TEST(VecEnv, ResetCopiesOfGamesWhoseResetReadsRam) {
  const std::filesystem::path ale = testing::ale_roms_dir();
  if (ale.empty()) GTEST_SKIP() << testing::kNoAleRoms;
  const std::vector<std::pair<const char*, bool>> games{
      {"seaquest", false},  {"venture", false},   {"kung_fu_master", true},
      {"time_pilot", true}, {"ice_hockey", true}, {"yars_revenge", true}};
  for (const auto& [game, by_ram] : games) {
    SCOPED_TRACE(game);
    Console console(Rom::load((ale / (std::string(game) + ".bin")).string()));
    const std::shared_ptr<const ResetCopy> copy = find_reset_copy(console, -1, -1);
    ASSERT_TRUE(copy != nullptr);
    EXPECT_EQ(copy->by_ram, by_ram);
    EXPECT_FALSE(copy->kept_at.empty() && copy->read_at.empty()) << "the reset keeps RAM";
    const AleSetup& s = console.setup();
    std::mt19937 rng(11);
    int pasts = 0, copied = 0;
    for (int run = 0; run < 4; ++run) {
      console.restore_state(console.constructed());
      console.reset();
      for (int frame = 0; frame < 2000; ++frame) {
        console.act(int(rng() % kNumActions));
        if (console.terminal()) console.reset();
        if (rng() % 97 != 0) continue;
        // This past's reset, whole and from the copy.
        Console::Snapshot whole = console.clone_state(), taken = whole;
        const FrameBuffers whole_frames{whole.frames.data(), uint32_t(whole.frames.size() / 2)};
        const FrameBuffers taken_frames{taken.frames.data(), uint32_t(taken.frames.size() / 2)};
        ale_reset(whole.state, s, whole_frames);
        AleConsole looked = taken.state;
        copied += ale_reset_copy_console(copy->view(), looked) >= 0;
        ale_reset_or_copy(taken.state, s, copy->view(), taken_frames);
        ASSERT_EQ(std::memcmp(&whole.state, &taken.state, sizeof whole.state), 0)
            << "run " << run << " frame " << frame;
        ASSERT_EQ(whole.frames, taken.frames) << "run " << run << " frame " << frame;
        ++pasts;
      }
    }
    EXPECT_GT(copied, 0) << "of " << pasts << " resets";
    if (by_ram) {
      EXPECT_GE(4 * copied, pasts) << "copied " << copied << " of " << pasts << " resets";
    }
  }
}

TEST(VecEnv, RejectsGamesThatCannotShareABatch) {
  EnvConfig config;
  config.num_envs = 4;
  EXPECT_THROW(VecEnv(std::vector<Rom>{}, config), Error);
  try {
    VecEnv env({tetris(), catch_cartridge()}, config);  // minimal action sets differ
    FAIL() << "expected cule::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("full_action_space"), std::string::npos) << e.what();
  }
  config.full_action_space = true;
  config.num_envs = 1;
  try {
    VecEnv env({tetris(), catch_cartridge()}, config);
    FAIL() << "expected cule::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("roms"), std::string::npos) << e.what();
  }
}

TEST(VecEnv, ObservationShapes) {
  EnvConfig c;
  c.num_envs = 2;
  c.obs_type = ObsType::rgb;
  c.img_height = 50;
  c.img_width = 40;
  c.stack_num = 3;
  VecEnv rgb(tetris(), c);
  EXPECT_EQ(rgb.observation_shape(), (std::vector<int64_t>{3, 50, 40, 3}));
  c.obs_type = ObsType::ram;
  VecEnv ram(tetris(), c);
  EXPECT_EQ(ram.observation_shape(), (std::vector<int64_t>{3, 128}));
  const std::vector<int32_t> actions(2, 0);
  ram.step(actions.data());
  const uint8_t* newest = ram.observations() + 2 * 128;
  EXPECT_TRUE(std::equal(newest, newest + 128, ram.ram(0)));
}

// The mean of the source area under each output pixel, in double precision,
// from the definition (no taps): the reference for the area resize.
double exact_area_mean(const std::vector<uint8_t>& src, int sw, int sh, int dw, int dh, int dx,
                       int dy) {
  const double sx = double(sw) / dw, sy = double(sh) / dh;
  double total = 0.0;
  for (int y = 0; y < sh; ++y) {
    const double wy =
        std::max(0.0, std::min(y + 1.0, (dy + 1) * sy) - std::max(double(y), dy * sy));
    if (wy <= 0.0) continue;
    for (int x = 0; x < sw; ++x) {
      const double wx =
          std::max(0.0, std::min(x + 1.0, (dx + 1) * sx) - std::max(double(x), dx * sx));
      total += wx * wy * src[size_t(y * sw + x)];
    }
  }
  return total / (sx * sy);
}

TEST(Preprocess, AreaResizeIsTheAreaMean) {
  const int sizes[][4] = {{160, 210, 84, 84},
                          {160, 250, 84, 84},
                          {160, 210, 80, 105},
                          {160, 210, 33, 47},
                          {160, 210, 160, 210}};
  std::mt19937 rng(5);
  for (const auto& s : sizes) {
    const int sw = s[0], sh = s[1], dw = s[2], dh = s[3];
    std::vector<uint8_t> src(size_t(sw * sh));
    for (uint8_t& v : src) v = uint8_t(rng());
    std::vector<AreaTap> xt(size_t(dw * area_span_bound(sw, dw))),
        yt(size_t(area_taps_bound(sh, dh)));
    const int span = area_taps_padded(sw, dw, xt.data());
    AreaResize r{
        xt.data(),     yt.data(),    uint16_t(dw * span), uint16_t(area_taps(sh, dh, yt.data())),
        uint16_t(sw),  uint16_t(sh), uint16_t(dw),        uint16_t(dh),
        uint16_t(span)};
    std::vector<uint8_t> out(size_t(dw * dh));
    std::vector<float> row(static_cast<size_t>(dw)), sum(static_cast<size_t>(dw));
    area_resize<1>(r, src.data(), out.data(), row.data(), sum.data());
    for (int dy = 0; dy < dh; ++dy) {
      for (int dx = 0; dx < dw; ++dx) {
        const double want = exact_area_mean(src, sw, sh, dw, dh, dx, dy);
        ASSERT_LE(std::fabs(out[size_t(dy * dw + dx)] - want), 0.5 + 1e-3)
            << sw << "x" << sh << " -> " << dw << "x" << dh << " at " << dx << "," << dy;
      }
    }
  }
}

// The row sums of the padded windows, on the host's path (a float row, the
// span fixed) and the device's (the bytes), are those of adding each output
// pixel's taps (area_taps) one by one to zero, bit for bit, for one and
// three channels and spans of 2 to 6; every window is consecutive pixels
// inside the row.
template <int Channels>
void expect_same_row_sums(int dw, std::mt19937& rng) {
  const int sw = 160;
  std::vector<AreaTap> xt(size_t(dw * area_span_bound(sw, dw))),
      plain(size_t(area_taps_bound(sw, dw)));
  const int span = area_taps_padded(sw, dw, xt.data());
  const int taps = area_taps(sw, dw, plain.data());
  for (int d = 0; d < dw; ++d) {
    for (int k = 0; k < span; ++k) {
      const AreaTap& t = xt[size_t(d * span + k)];
      ASSERT_EQ(t.src, xt[size_t(d * span)].src + k) << dw << " pixels, output " << d;
      ASSERT_LT(t.src, sw) << dw << " pixels, output " << d;
    }
  }
  const AreaResize r{xt.data(),    nullptr,     uint16_t(dw * span), 0, uint16_t(sw), uint16_t(1),
                     uint16_t(dw), uint16_t(1), uint16_t(span)};
  std::vector<uint8_t> line(size_t(sw * Channels));
  for (int trial = 0; trial < 50; ++trial) {
    for (uint8_t& v : line) v = uint8_t(rng());
    std::vector<float> want(size_t(dw * Channels), 0.0f);
    for (int t = 0; t < taps; ++t) {
      for (int c = 0; c < Channels; ++c) {
        float& acc = want[size_t(plain[size_t(t)].dst * Channels + c)];
        acc += plain[size_t(t)].weight * float(line[size_t(plain[size_t(t)].src * Channels + c)]);
      }
    }
    std::vector<float> host(want.size()), device(want.size());
    area_row_sums_of_line<Channels>(r, line.data(), host.data());
    area_row_sums<Channels>(r, line.data(), device.data());
    ASSERT_EQ(0, std::memcmp(host.data(), want.data(), want.size() * sizeof(float)))
        << "host: 160 -> " << dw << " pixels, " << Channels << " channel(s), span " << span;
    ASSERT_EQ(0, std::memcmp(device.data(), want.data(), want.size() * sizeof(float)))
        << "device: 160 -> " << dw << " pixels, " << Channels << " channel(s), span " << span;
  }
}

TEST(Preprocess, RowSumsAreTheTapSums) {
  std::mt19937 rng(11);
  for (const int dw : {159, 150, 120, 100, 84, 81, 80, 64, 60, 50, 45, 33}) {
    expect_same_row_sums<1>(dw, rng);
    expect_same_row_sums<3>(dw, rng);
  }
}

TEST(VecEnv, RejectsBadActions) {
  EnvConfig c;
  c.num_envs = 2;
  VecEnv env(tetris(), c);
  const Outputs before = outputs(env);
  const std::vector<int32_t> too_big = {0, int32_t(env.action_set().size())};
  const std::vector<int32_t> negative = {-1, 0};
  try {
    env.step(too_big.data());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("actions[1]"), std::string::npos) << e.what();
  }
  EXPECT_THROW(env.step(negative.data()), Error);
  // Strengths: a number of magnitude at most 65536 (kMaxPaddleStrength).
  const std::vector<int32_t> fine = {0, 1};
  for (float bad : {65536.01f, -1e6f, NAN, INFINITY}) {
    const std::vector<float> strengths = {1.0f, bad};
    try {
      env.step(fine.data(), strengths.data());
      ADD_FAILURE() << "no error for strength " << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("paddle_strengths[1]"), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(outputs(env) == before) << "a rejected step must not run any environment";
  const std::vector<float> bounds = {65536.0f, -65536.0f};
  env.step(fine.data(), bounds.data());
}

TEST(VecEnv, RejectsBadOptions) {
  auto expect_error = [](EnvConfig c, const std::string& names) {
    try {
      VecEnv env(tetris(), c);
      ADD_FAILURE() << "no error for " << names;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
    }
  };
  const std::pair<const char*, void (*)(EnvConfig&)> cases[] = {
      {"num_envs", [](EnvConfig& c) { c.num_envs = 0; }},
      {"frameskip", [](EnvConfig& c) { c.frameskip = 0; }},
      {"stack_num", [](EnvConfig& c) { c.stack_num = 0; }},
      {"repeat_action_probability", [](EnvConfig& c) { c.repeat_action_probability = 1.5f; }},
      {"img_height", [](EnvConfig& c) { c.img_height = 211; }},
      {"img_height", [](EnvConfig& c) { c.img_height = -1; }},
      {"img_width", [](EnvConfig& c) { c.img_width = 161; }},
      {"episodic_life", [](EnvConfig& c) { c.episodic_life = c.life_loss_info = true; }},
      {"mode", [](EnvConfig& c) { c.mode = 3; }},  // tetris has mode 0 only
      {"difficulty", [](EnvConfig& c) { c.difficulty = 2; }},
  };
  for (const auto& [name, spoil] : cases) {
    EnvConfig c;
    spoil(c);
    expect_error(c, name);
  }
  EnvConfig c;
  c.device = Device::cuda(0);
  EXPECT_THROW(VecEnv(tetris(), c), DeviceError);
}

// img_height 0 keeps the screen's height: frames as ALE's getScreenRGB gives
// them, unresized.
TEST(VecEnv, ImgHeightZeroKeepsTheScreensHeight) {
  EnvConfig config = EnvConfig::v5(2);
  ASSERT_EQ(config.img_height, 0);
  VecEnv env(tetris(), config);
  const int height = env.screen_height();
  EXPECT_EQ(env.config().img_height, height);
  EXPECT_EQ(env.observation_shape(), (std::vector<int64_t>{1, height, kScreenWidth, 3}));
  std::vector<int32_t> actions{1, 2};
  std::vector<uint8_t> rgb(size_t(height) * kScreenWidth * 3);
  for (int t = 0; t < 30; ++t) {
    env.step(actions.data());
    for (int i = 0; i < 2; ++i) {
      env.screen_rgb(i, rgb.data());
      ASSERT_EQ(0, std::memcmp(env.observations() + size_t(i) * env.observation_bytes(), rgb.data(),
                               rgb.size()))
          << "environment " << i << ", step " << t;
    }
  }
}

TEST(VecEnv, RejectsRomsWithoutGameSettings) {
  const Rom cartridge = Rom::load(std::string(CULE_CARTRIDGE_DIR) + "/tia_playfield.bin");
  try {
    VecEnv env(cartridge, EnvConfig{});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no ALE game settings"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cule
