// Plays a batch of environments with a fixed action sequence and prints a
// digest of everything the steps gave. Built once in cule's tree and once
// against the installed package (check.cmake), the two must print the same.
//
//   package_consumer ROM
#include <cstdint>
#include <cstdio>
#include <cule/cule.hpp>
#include <vector>

namespace {

// FNV-1a over bytes.
struct Digest {
  uint64_t value = 0xcbf29ce484222325ull;
  void add(const void* data, size_t bytes) {
    const auto* p = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < bytes; ++i) value = (value ^ p[i]) * 0x100000001b3ull;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s ROM\n", argv[0]);
    return 2;
  }
  cule::EnvConfig config;
  config.num_envs = 4;
  config.num_threads = 1;
  config.repeat_action_probability = 0.25f;
  try {
    cule::VecEnv env(cule::Rom::load(argv[1]), config);
    env.reset();
    const size_t n = size_t(config.num_envs);
    std::vector<int32_t> actions(n);
    Digest digest;
    float total_reward = 0;
    for (int t = 0; t < 200; ++t) {
      for (size_t i = 0; i < n; ++i)
        actions[i] = int32_t((t * 7 + i * 3) % env.action_set().size());
      env.step(actions.data());
      digest.add(env.observations(), size_t(env.observation_bytes()) * n);
      digest.add(env.rewards(), n * sizeof(float));
      digest.add(env.terminated(), n);
      digest.add(env.truncated(), n);
      for (size_t i = 0; i < n; ++i) total_reward += env.rewards()[i];
    }
    digest.add(env.ram(0), 128);
    std::printf("%s: 200 steps of %zu envs, total reward %g, digest %016llx\n", env.game().c_str(),
                n, double(total_reward), static_cast<unsigned long long>(digest.value));
  } catch (const cule::Error& e) {
    std::fprintf(stderr, "package_consumer: %s\n", e.what());
    return 1;
  }
  return 0;
}
