// The CUDA backend of VecEnv: the batch, the ROMs, palettes, the resize
// taps and the consoles' starting states in device memory for the
// environment's lifetime; resets and steps are kernel launches on the
// caller's stream, with no copy to the host on the step path.
#include "cule/error.hpp"
#include "cule/vec_env_storage.hpp"

#ifdef CULE_WITH_CUDA
#include <cuda_runtime.h>

#include <type_traits>
#include <vector>

#include "cule/cuda_memory.hpp"
#include "cule/flat_machine.hpp"
#include "kernels/env_step.cuh"
#endif

namespace cule {

#ifdef CULE_WITH_CUDA
namespace {

// Device stack per thread: a reset's mode selection runs the whole console
// several calls deep, and Klax's look at its cartridge RAM copies a console
// (ptxas, sm_90: 5,664 bytes for the reset kernel, 3,344 for the step
// kernel; 3,536 for it built for 16 blocks per SM before the episode starts
// were copies, check.sh --sweep).
// The driver reserves it for every thread the GPU can hold, so it is kept
// small.
constexpr size_t kStackBytes = 7 * 1024;

cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }

template <class T>
void upload(DeviceArray<T>& to, const T* from, size_t count, cudaStream_t stream = nullptr) {
  check_cuda(cudaMemcpyAsync(to.data, from, count * sizeof(T), cudaMemcpyHostToDevice, stream),
             "copy to the device");
}

// One game's part of the batch in device memory: its ROM (after its
// predecoded code), palette, the state its consoles start from and its
// reset's copy, and its setup pointing at them.
struct DeviceGame {
  EnvSetup setup;  // device pointers
  int first, count;
  DeviceArray<PredecodedCode> rom;  // PredecodedRom::memory
  DeviceArray<Palette> palette;
  DeviceArray<AleConsole> constructed;
  DeviceArray<uint8_t> constructed_pixels;
  std::vector<DeviceArray<uint8_t>> reset_copy;  // its parts (see AleResetCopy)

  explicit DeviceGame(const VecEnv::Game& game)
      : setup(game.setup),
        first(game.first),
        count(game.count),
        rom(game.prototype->predecoded_rom().memory.size()),
        palette(1),
        constructed(1),
        constructed_pixels(game.prototype->constructed().frames.size()) {
    const PredecodedRom& predecoded = game.prototype->predecoded_rom();
    upload(rom, predecoded.memory.data(), predecoded.memory.size());
    upload(palette, game.setup.palette, 1);
    const Console::Snapshot& state = game.prototype->constructed();
    upload(constructed, &state.state, 1);
    upload(constructed_pixels, state.frames.data(), state.frames.size());
    setup.ale.console.rom = predecoded.image_in(rom.data);
    // A host object: only the reset copies' trials on the host watch RAM.
    setup.ale.console.ram_watch = nullptr;
    setup.palette = palette.data;
    if (game.reset_copy) {
      setup.reset_copy = game.reset_copy->view_placed([this](const auto& part) {
        using T = typename std::decay_t<decltype(part)>::value_type;
        const size_t bytes = part.size() * sizeof(T);
        reset_copy.emplace_back(bytes > 0 ? bytes : 1);  // no allocation is empty
        upload(reset_copy.back(), reinterpret_cast<const uint8_t*>(part.data()), bytes);
        return reinterpret_cast<const T*>(reset_copy.back().data);
      });
    }
  }
};

class CudaStorage final : public VecEnv::Storage {
 public:
  CudaStorage(const std::vector<VecEnv::Game>& games, int num_envs, int device)
      : CudaStorage(games.front().setup, num_envs, device) {
    games_.reserve(games.size());
    for (const VecEnv::Game& game : games) {
      DeviceGame& on_device = games_.emplace_back(game);
      on_device.setup.area.x_taps = x_taps_.data;
      on_device.setup.area.y_taps = y_taps_.data;
    }
    setup_ = games_.front().setup;
    check_cuda(cudaDeviceSynchronize(), "device set-up");
  }

 private:
  // The buffers, sized by the geometry every game shares.
  CudaStorage(const EnvSetup& host_setup, int num_envs, int device)
      : n_(size_t(num_envs)),
        device_(device),
        setup_(host_setup),
        x_taps_(host_setup.area.x_count + 1u),
        y_taps_(host_setup.area.y_count + 1u),
        errors_(1),
        due_resets_(n_),
        due_reset_count_(1),
        actions_(n_),
        strengths_(n_),
        mask_(n_),
        seeds_(n_),
        consoles_(n_),
        episodes_(n_),
        saves_(host_setup.draw_all_frames ? 1 : n_),
        pixels_(n_ * 2 * host_setup.screen_pixels),
        captured_(n_ * 2 * size_t(host_setup.capture_bytes) + 1),
        scratch_(n_ * size_t(host_setup.scratch_floats) + 1),
        observations_(n_ * size_t(host_setup.obs_bytes)),
        final_observations_(host_setup.autoreset_mode == AutoresetMode::same_step
                                ? n_ * size_t(host_setup.obs_bytes)
                                : 1),
        rewards_(n_),
        episode_returns_(n_),
        terminated_(n_),
        truncated_(n_),
        autoreset_(n_),
        lives_(n_),
        episode_frames_(n_),
        episode_lengths_(n_),
        frame_numbers_(n_),
        screen_(2 * host_setup.screen_pixels) {
    if (host_setup.resize) {
      upload(x_taps_, host_setup.area.x_taps, host_setup.area.x_count);
      upload(y_taps_, host_setup.area.y_taps, host_setup.area.y_count);
    }
    check_cuda(cudaMemset(errors_.data, 0, sizeof(uint32_t)), "cudaMemset");
    // Zeros until an episode ends there, as the CPU backend's.
    if (host_setup.autoreset_mode == AutoresetMode::same_step) {
      check_cuda(cudaMemset(final_observations_.data, 0, n_ * size_t(host_setup.obs_bytes)),
                 "cudaMemset");
    }
  }

 public:
  EnvBatch batch() override {
    return EnvBatch{
        consoles_.data,
        episodes_.data,
        setup_.draw_all_frames ? nullptr : saves_.data,
        pixels_.data,
        captured_.data,
        scratch_.data,
        observations_.data,
        setup_.autoreset_mode == AutoresetMode::same_step ? final_observations_.data : nullptr,
        rewards_.data,
        terminated_.data,
        truncated_.data,
        autoreset_.data,
        lives_.data,
        episode_frames_.data,
        frame_numbers_.data,
        episode_returns_.data,
        episode_lengths_.data};
  }

  ModeStatus reset(const uint8_t* mask, const uint64_t* seeds, int mode, int difficulty,
                   void* stream) override {
    select_device();
    const cudaStream_t s = as_stream(stream);
    wait_for_queued(s);
    if (mask) upload(mask_, staged(staged_mask_, mask), n_, s);
    if (seeds) upload(seeds_, staged(staged_seeds_, seeds), n_, s);
    // One launch per game, over its environments.
    for (const DeviceGame& game : games_) {
      kernels::launch_env_reset(game.setup, batch(), mask ? mask_.data : nullptr,
                                seeds ? seeds_.data : nullptr, game.constructed.data,
                                game.constructed_pixels.data, mode, difficulty, errors_.data,
                                game.first, game.count, s);
      check_cuda(cudaGetLastError(), "reset launch");
    }
    mark_queued(s);
    return ModeStatus::ok;
  }

  ModeStatus step(const int32_t* actions, const float* paddle_strengths, bool device_pointers,
                  void* stream) override {
    select_device();
    const cudaStream_t s = as_stream(stream);
    wait_for_queued(s);
    if (!device_pointers) {
      upload(actions_, staged(staged_actions_, actions), n_, s);
      if (paddle_strengths) upload(strengths_, staged(staged_strengths_, paddle_strengths), n_, s);
      actions = actions_.data;
      paddle_strengths = paddle_strengths ? strengths_.data : nullptr;
    }
    for (const DeviceGame& game : games_) {
      kernels::launch_env_step(game.setup, batch(), actions, paddle_strengths, errors_.data,
                               {due_resets_.data, due_reset_count_.data}, game.first, game.count,
                               s);
      check_cuda(cudaGetLastError(), "step launch");
    }
    mark_queued(s);
    return ModeStatus::ok;
  }

  // One environment at a time is AsyncVecEnv's, and that refuses devices.
  ModeStatus reset_one(int, const uint64_t*, int, int) override {
    throw Error("reset_env: the CUDA backend resets environments in batches only");
  }
  ModeStatus step_one(int, int32_t, float) override {
    throw Error("step_env: the CUDA backend steps environments in batches only");
  }

  void read(int i, VecEnv::Snapshot::Env& out) const override {
    const size_t k = size_t(i);
    select_device();
    download(&out.console, consoles_.data + k, 1);
    download(&out.episode, episodes_.data + k, 1);
    out.pixels.resize(2 * setup_.screen_pixels);
    download(out.pixels.data(), pixels_.data + k * out.pixels.size(), out.pixels.size());
    out.captured.resize(2 * size_t(setup_.capture_bytes));
    download(out.captured.data(), captured_.data + k * out.captured.size(), out.captured.size());
    out.observation.resize(size_t(setup_.obs_bytes));
    download(out.observation.data(), observations_.data + k * out.observation.size(),
             out.observation.size());
    download(&out.reward, rewards_.data + k, 1);
    download(&out.terminated, terminated_.data + k, 1);
    download(&out.truncated, truncated_.data + k, 1);
  }

  void write(int i, const VecEnv::Snapshot::Env& in) override {
    const size_t k = size_t(i);
    select_device();
    put(consoles_.data + k, &in.console, 1);
    put(episodes_.data + k, &in.episode, 1);
    put(pixels_.data + k * in.pixels.size(), in.pixels.data(), in.pixels.size());
    put(captured_.data + k * in.captured.size(), in.captured.data(), in.captured.size());
    put(observations_.data + k * in.observation.size(), in.observation.data(),
        in.observation.size());
    put(rewards_.data + k, &in.reward, 1);
    put(terminated_.data + k, &in.terminated, 1);
    put(truncated_.data + k, &in.truncated, 1);
    const uint8_t zero = 0;
    put(autoreset_.data + k, &zero, 1);
    // The outputs env_write_outputs derives, computed here from the copies.
    const int32_t lives = in.episode.lives;
    const int32_t episode_frames = int32_t(in.console.episode_frame_number);
    const int64_t frames = int64_t(in.console.frame_number);
    put(lives_.data + k, &lives, 1);
    put(episode_frames_.data + k, &episode_frames, 1);
    put(frame_numbers_.data + k, &frames, 1);
    put(episode_returns_.data + k, &in.episode.episode_return, 1);
    put(episode_lengths_.data + k, &in.episode.length, 1);
  }

  const uint8_t* screen(int i) override {
    synchronize();
    AleConsole console;
    download(&console, consoles_.data + size_t(i), 1);
    const size_t size = 2 * setup_.screen_pixels;
    download(screen_.data(), pixels_.data + size_t(i) * size, size);
    return screen_.data() + console.machine.tia.current_buffer * setup_.screen_pixels;
  }

  const uint8_t* ram(int i) override {
    synchronize();
    download(&ram_console_, consoles_.data + size_t(i), 1);
    return ram_console_.machine.riot.ram;
  }

  uint32_t check_errors() override {
    synchronize();
    uint32_t errors = 0;
    download(&errors, errors_.data, 1);
    check_cuda(cudaMemset(errors_.data, 0, sizeof(uint32_t)), "cudaMemset");
    synchronize();  // cleared before work on any stream can set it again
    return errors;
  }

  void synchronize() override {
    select_device();
    check_cuda(cudaDeviceSynchronize(), "synchronize");
  }

  void copy_to_host(const void* from, void* to, size_t bytes) override {
    synchronize();
    check_cuda(cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToHost), "copy to the host");
  }

  void order_before(void* consumer) override {
    select_device();
    wait_for_queued(as_stream(consumer));
  }

 private:
  void select_device() const { check_cuda(cudaSetDevice(device_), "cudaSetDevice"); }
  // Every reset and step reads and writes the batch's buffers (the actions,
  // the due resets, the consoles), so each must run after the ones queued
  // before it, on whatever stream they went. After each call an event marks
  // its work, and each call or consumer first waits for it (on the same
  // stream a wait costs little, and a handle such as cudaStreamPerThread
  // names another stream on each thread). A stream being captured into a
  // CUDA graph neither waits (a capture may not wait on work outside it)
  // nor marks (its work runs only when the graph is launched): a graph's
  // launches are the caller's to order.
  void wait_for_queued(cudaStream_t s) {
    if (capturing(s)) return;
    check_cuda(cudaStreamWaitEvent(s, queued_.event, 0), "cudaStreamWaitEvent");
  }
  void mark_queued(cudaStream_t s) {
    if (capturing(s)) return;
    check_cuda(cudaEventRecord(queued_.event, s), "cudaEventRecord");
  }
  static bool capturing(cudaStream_t s) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    check_cuda(cudaStreamIsCapturing(s, &status), "cudaStreamIsCapturing");
    return status != cudaStreamCaptureStatusNone;
  }
  template <class T>
  static void download(T* to, const T* from, size_t count) {
    check_cuda(cudaMemcpy(to, from, count * sizeof(T), cudaMemcpyDeviceToHost), "copy to the host");
  }
  //! `from`'s n_ elements, copied into `staging` (see staged_actions_).
  template <class T>
  const T* staged(std::vector<T>& staging, const T* from) const {
    staging.assign(from, from + n_);
    return staging.data();
  }
  template <class T>
  static void put(T* to, const T* from, size_t count) {
    check_cuda(cudaMemcpy(to, from, count * sizeof(T), cudaMemcpyHostToDevice),
               "copy to the device");
  }

  size_t n_;
  int device_;
  EnvSetup setup_;  // the geometry, common to every game (the first game's, device pointers)
  DeviceArray<AreaTap> x_taps_, y_taps_;
  std::vector<DeviceGame> games_;
  DeviceArray<uint32_t> errors_;
  DeviceArray<uint32_t> due_resets_, due_reset_count_;  // kernels::DueResets
  DeviceArray<int32_t> actions_;
  DeviceArray<float> strengths_;
  DeviceArray<uint8_t> mask_;
  DeviceArray<uint64_t> seeds_;
  // The caller's host arrays go to the device through these: a copy from
  // pageable memory has read its source when cudaMemcpyAsync returns, one
  // from pinned memory (a pinned tensor's, say) may read it later, when the
  // caller is free to change it.
  std::vector<int32_t> staged_actions_;
  std::vector<float> staged_strengths_;
  std::vector<uint8_t> staged_mask_;
  std::vector<uint64_t> staged_seeds_;
  DeviceArray<AleConsole> consoles_;
  DeviceArray<EnvEpisode> episodes_;
  DeviceArray<EnvSave> saves_;
  DeviceArray<uint8_t> pixels_, captured_;
  DeviceArray<float> scratch_;
  DeviceArray<uint8_t> observations_, final_observations_;
  DeviceArray<float> rewards_, episode_returns_;
  DeviceArray<uint8_t> terminated_, truncated_, autoreset_;
  DeviceArray<int32_t> lives_, episode_frames_, episode_lengths_;
  DeviceArray<int64_t> frame_numbers_;
  // The end of the last reset or step queued outside a capture
  // (wait_for_queued).
  struct Event {
    cudaEvent_t event = nullptr;
    Event() {
      check_cuda(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreate");
    }
    ~Event() { cudaEventDestroy(event); }
  } queued_;
  std::vector<uint8_t> screen_;  // host copies for screen() and ram()
  AleConsole ram_console_{};
};

}  // namespace

std::unique_ptr<VecEnv::Storage> make_cuda_storage(const std::vector<VecEnv::Game>& games,
                                                   int num_envs, int device) {
  const int devices = cuda_device_count();
  if (device < 0 || device >= devices) {
    throw DeviceError("device: cuda:" + std::to_string(device) + " is not available (" +
                      std::to_string(devices) + " CUDA device(s) found)");
  }
  check_cuda(cudaSetDevice(device), "cudaSetDevice");
  check_cuda(kernels::env_kernels_status(), "loading the step kernels");
  size_t stack = 0;
  check_cuda(cudaDeviceGetLimit(&stack, cudaLimitStackSize), "cudaDeviceGetLimit");
  if (stack < kStackBytes) {
    check_cuda(cudaDeviceSetLimit(cudaLimitStackSize, kStackBytes), "cudaDeviceSetLimit");
  }
  return std::make_unique<CudaStorage>(games, num_envs, device);
}

#else

std::unique_ptr<VecEnv::Storage> make_cuda_storage(const std::vector<VecEnv::Game>&, int, int) {
  throw DeviceError(
      "device: cule was built without CUDA (configure with CULE_CUDA=ON and nvcc); use device "
      "cpu");
}

#endif

}  // namespace cule
