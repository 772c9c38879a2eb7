// cule._core: the pybind11 module. Thin: converts types, releases the GIL
// around emulation, maps cule's exceptions to Python's.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cule/cule.hpp"
#include "cule/game_rules.hpp"
#include "cule/vec_env.hpp"
#include "kernels/palette.hpp"

namespace py = pybind11;

namespace {

cule::FlatMachine flat_machine_from_bytes(const py::bytes& image, uint16_t load_address) {
  const std::string data = image;
  return cule::FlatMachine(reinterpret_cast<const uint8_t*>(data.data()), data.size(),
                           load_address);
}

// A read-only numpy view of memory owned by `owner` (kept alive by the view).
py::array_t<uint8_t> view(const uint8_t* data, std::vector<py::ssize_t> shape, py::handle owner) {
  py::array_t<uint8_t> array(shape, data, owner);
  py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return array;
}

cule::Rom rom_from(const py::object& rom) {
  if (py::isinstance<py::bytes>(rom)) {
    const std::string data = rom.cast<py::bytes>();
    return cule::Rom::from_bytes(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  }
  return cule::Rom::load(py::str(rom).cast<std::string>());
}

}  // namespace

// --- GameRules: ALE's per-game reward/terminal/lives rules, for tests ------
namespace {

struct PyGameRules {
  cule::Game game;
  cule::GameRuleState state;
};

void bind_game_rules(py::module_& m) {
  py::class_<PyGameRules>(m, "GameRules", R"doc(
ALE's game settings for one game: reward, terminal and lives after each frame,
computed from RAM (kernels/game_rules.hpp).)doc")
      .def(py::init([](const std::string& id) {
             PyGameRules r{cule::game_from_id(id), {}};
             cule::game_rules_init(r.state);
             cule::game_rules_reset(r.game, r.state);
             return r;
           }),
           py::arg("game_id"))
      .def(
          "reset", [](PyGameRules& r) { cule::game_rules_reset(r.game, r.state); },
          "RomSettings::reset.")
      .def(
          "set_mode",
          [](PyGameRules& r, int mode) { cule::game_rules_set_mode(r.game, r.state, mode); },
          py::arg("mode"), "What the game's setMode does to its settings.")
      .def(
          "step",
          [](PyGameRules& r, py::array_t<uint8_t, py::array::c_style | py::array::forcecast> ram,
             std::optional<py::array_t<uint8_t, py::array::c_style | py::array::forcecast>>
                 cart_ram) {
            if (ram.size() != 128) throw cule::Error("ram: expected 128 bytes");
            if (cart_ram && cart_ram->size() != 128) {
              throw cule::Error("cart_ram: expected 128 bytes");
            }
            cule::game_rules_step(r.game, r.state, ram.data(),
                                  cart_ram ? cart_ram->data() : nullptr);
          },
          py::arg("ram"), py::arg("cart_ram") = py::none(),
          "RomSettings::step over 128 bytes of RAM (and Klax's cartridge RAM).")
      .def_property_readonly("reward",
                             [](const PyGameRules& r) { return cule::game_rules_reward(r.state); })
      .def_property_readonly(
          "terminal", [](const PyGameRules& r) { return cule::game_rules_terminal(r.state); })
      .def_property_readonly(
          "lives", [](const PyGameRules& r) { return cule::game_rules_lives(r.game, r.state); })
      .def_property_readonly("score", [](const PyGameRules& r) { return r.state.score; });
  m.def(
      "minimal_action_set",
      [](const std::string& id) { return cule::minimal_action_set(cule::game_from_id(id)); },
      py::arg("game_id"), "ALE's minimal action set, in ALE's action order.");
}

}  // namespace

// --- VecEnv: the batched environments ---------------------------------------
namespace {

// The DLPack ABI (dlpack.h, v0.8: the struct layout every framework reads).
namespace dlpack {
struct Device {
  int32_t device_type;  // 1: CPU, 2: CUDA
  int32_t device_id;
};
struct DataType {
  uint8_t code;  // 0: int, 1: uint, 2: float, 6: bool
  uint8_t bits;
  uint16_t lanes;
};
struct Tensor {
  void* data;
  Device device;
  int32_t ndim;
  DataType dtype;
  int64_t* shape;
  int64_t* strides;  // null: C order
  uint64_t byte_offset;
};
struct ManagedTensor {
  Tensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(ManagedTensor* self);
};
constexpr int32_t kCpu = 1;
constexpr int32_t kCuda = 2;
}  // namespace dlpack

// A VecEnv buffer in CUDA memory, exported without a copy through
// __cuda_array_interface__ (v3) and __dlpack__, with the env's stream order.
struct CudaBuffer {
  py::object owner;  // the VecEnv (a numpy array for _host_buffer_for_tests)
  const void* data;
  std::vector<int64_t> shape;
  char kind;  // numpy's: 'u', 'i', 'f', 'b'
  int itemsize;
  int device;
  int32_t device_type = dlpack::kCuda;  // kCpu only for _host_buffer_for_tests

  std::string typestr() const {
    return std::string(itemsize == 1 ? "|" : "<") + kind + std::to_string(itemsize);
  }
};

struct DlpackContext {
  std::vector<int64_t> shape;
  py::object owner;
};

// Waits for the env's queued work on `stream` (DLPack's convention: None or
// 1 is the legacy default stream, 2 the per-thread one, -1 no ordering).
void order_env_before(const CudaBuffer& b, const py::object& stream) {
  if (b.device_type != dlpack::kCuda) return;
  int64_t s = stream.is_none() ? 1 : stream.cast<int64_t>();
  if (s == -1) return;
  auto& env = b.owner.cast<cule::VecEnv&>();
  env.order_before(reinterpret_cast<void*>(uintptr_t(s)));
}

py::capsule to_dlpack(const CudaBuffer& b, const py::object& stream) {
  order_env_before(b, stream);
  auto* context = new DlpackContext{b.shape, b.owner};
  auto* managed = new dlpack::ManagedTensor{};
  managed->dl_tensor.data = const_cast<void*>(b.data);
  managed->dl_tensor.device = {b.device_type, b.device};
  managed->dl_tensor.ndim = int32_t(b.shape.size());
  const uint8_t code = b.kind == 'i' ? 0 : b.kind == 'u' ? 1 : b.kind == 'f' ? 2 : 6;
  managed->dl_tensor.dtype = {code, uint8_t(8 * b.itemsize), 1};
  managed->dl_tensor.shape = context->shape.data();
  managed->manager_ctx = context;
  managed->deleter = [](dlpack::ManagedTensor* self) {
    py::gil_scoped_acquire gil;
    delete static_cast<DlpackContext*>(self->manager_ctx);
    delete self;
  };
  // A capsule no consumer took frees the tensor itself.
  return py::capsule(managed, "dltensor", [](PyObject* capsule) {
    if (PyCapsule_IsValid(capsule, "dltensor")) {
      auto* t = static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
      t->deleter(t);
    }
  });
}

void bind_cuda_buffer(py::module_& m) {
  // The same export over host memory, so that CPU-only CI checks the DLPack
  // capsule (layout, dtype, lifetime) that CUDA buffers hand out.
  m.def(
      "_host_buffer_for_tests",
      [](py::array array) {
        if (!(array.flags() & py::array::c_style)) {
          throw cule::Error("array: expected a C-contiguous array");
        }
        CudaBuffer b{array, array.data(), {}, array.dtype().kind(), int(array.itemsize()),
                     0,     dlpack::kCpu};
        for (py::ssize_t i = 0; i < array.ndim(); ++i) b.shape.push_back(array.shape(i));
        return b;
      },
      py::arg("array"), "Tests only: a CudaBuffer over a numpy array's host memory.");

  py::class_<CudaBuffer>(m, "CudaBuffer", R"doc(
A VecEnv buffer in CUDA device memory, rewritten in place by every step.
torch.from_dlpack(buffer) or torch.as_tensor(buffer, device="cuda") shares it.)doc")
      .def_property_readonly("shape",
                             [](const CudaBuffer& b) {
                               py::tuple t(b.shape.size());
                               for (size_t i = 0; i < b.shape.size(); ++i) t[i] = b.shape[i];
                               return t;
                             })
      .def_property_readonly("dtype", [](const CudaBuffer& b) { return py::dtype(b.typestr()); })
      .def_property_readonly("device",
                             [](const CudaBuffer& b) { return "cuda:" + std::to_string(b.device); })
      .def_property_readonly("__cuda_array_interface__",
                             [](const CudaBuffer& b) {
                               py::dict d;
                               py::tuple shape(b.shape.size());
                               for (size_t i = 0; i < b.shape.size(); ++i) shape[i] = b.shape[i];
                               d["shape"] = shape;
                               d["typestr"] = b.typestr();
                               d["data"] = py::make_tuple(uintptr_t(b.data), false);
                               d["strides"] = py::none();
                               d["version"] = 3;
                               // Consumers synchronise on the default stream.
                               order_env_before(b, py::int_(1));
                               d["stream"] = 1;
                               return d;
                             })
      .def("__dlpack__", &to_dlpack, py::arg("stream") = py::none())
      .def("__dlpack_device__",
           [](const CudaBuffer& b) { return py::make_tuple(b.device_type, b.device); })
      .def(
          "copy_to_host",
          [](const CudaBuffer& b) {
            py::array host(py::dtype(b.typestr()), b.shape);
            auto& env = b.owner.cast<cule::VecEnv&>();
            env.copy_to_host(b.data, host.mutable_data(), size_t(host.nbytes()));
            return host;
          },
          "A numpy copy (waits for the device).");
}

// Where an environment batch's buffers live.
const cule::Device& device_of(const cule::VecEnv& e) { return e.device(); }
const cule::Device& device_of(const cule::AsyncVecEnv& e) { return e.envs().device(); }
// The rows of its per-environment buffers.
int rows_of(const cule::VecEnv& e) { return e.num_envs(); }
int rows_of(const cule::AsyncVecEnv& e) { return e.batch_size(); }

// A batch buffer of `Env` (owner): a writeable numpy view on CPU (writeable
// so that numpy can export it through DLPack), a CudaBuffer on CUDA; kept
// alive by the env.
template <class Env, class T>
py::object buffer_view(const T* data, std::vector<py::ssize_t> shape, py::handle owner,
                       const char* dtype = nullptr) {
  const cule::Device& device = device_of(owner.cast<const Env&>());
  const py::dtype type = dtype ? py::dtype(dtype) : py::dtype::of<T>();
  if (device.kind == cule::Device::Kind::cuda) {
    return py::cast(CudaBuffer{py::reinterpret_borrow<py::object>(owner), data,
                               std::vector<int64_t>(shape.begin(), shape.end()), type.kind(),
                               int(type.itemsize()), device.index});
  }
  std::vector<py::ssize_t> strides(shape.size(), py::ssize_t(sizeof(T)));
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return py::array(type, shape, strides, const_cast<T*>(data), owner);
}

// A per-environment buffer: one value per row; 0/1 bytes as bools.
template <class Env, class T>
py::object per_env_view(const T* data, py::ssize_t n, py::handle owner) {
  return buffer_view<Env>(data, {n}, owner, std::is_same_v<T, uint8_t> ? "?" : nullptr);
}

// (rows, *observation_shape()).
std::vector<py::ssize_t> batch_shape(int rows, const std::vector<int64_t>& observation_shape) {
  std::vector<py::ssize_t> shape{rows};
  for (int64_t d : observation_shape) shape.push_back(py::ssize_t(d));
  return shape;
}

template <class Env, class T>
void def_per_env(py::class_<Env>& cls, const char* name, const T* (Env::*buffer)() const) {
  cls.def_property_readonly(name, [buffer](py::object self) {
    const auto& e = self.cast<const Env&>();
    return per_env_view<Env>((e.*buffer)(), rows_of(e), self);
  });
}

// One value per environment from a numpy array-like of integers.
// `rows` names what n counts (num_envs, batch_size).
std::vector<int32_t> env_integers(const py::handle& values, int n, const char* name,
                                  const char* rows = "num_envs") {
  py::array array = py::array::ensure(values);
  if (!array) throw cule::Error(std::string(name) + ": expected an array of integers");
  const char kind = array.dtype().kind();
  if (kind != 'i' && kind != 'u' && kind != 'b') {
    throw cule::Error(std::string(name) + ": dtype " + std::string(py::str(array.dtype())) +
                      " is not an integer type; expected integer action indices");
  }
  if (array.ndim() != 1 || array.shape(0) != n) {
    throw cule::Error(std::string(name) + ": shape " + std::string(py::str(array.attr("shape"))) +
                      " does not match " + rows + "; expected (" + std::to_string(n) + ",)");
  }
  auto wide = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(array);
  std::vector<int32_t> out(static_cast<size_t>(n));
  const int64_t* v = wide.data();
  for (int i = 0; i < n; ++i) {
    if (v[i] < INT32_MIN || v[i] > INT32_MAX) {
      throw cule::Error(std::string(name) + "[" + std::to_string(i) + "]: " + std::to_string(v[i]) +
                        " is out of range");
    }
    out[size_t(i)] = int32_t(v[i]);
  }
  return out;
}

// One paddle strength per environment, or none (empty) for None.
std::vector<float> env_strengths(const py::object& strengths, int n) {
  if (strengths.is_none()) return {};
  auto f = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(strengths);
  if (!f || f.ndim() != 1 || f.shape(0) != n) {
    throw cule::Error("paddle_strengths: expected one float per environment");
  }
  return std::vector<float>(f.data(), f.data() + n);
}

std::vector<uint8_t> env_mask(const py::handle& mask, int n) {
  py::array array = py::array::ensure(mask);
  if (!array || array.ndim() != 1 || array.shape(0) != n || array.dtype().kind() != 'b') {
    throw cule::Error("mask: expected a boolean array of shape (" + std::to_string(n) + ",)");
  }
  auto bytes = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>::ensure(array);
  return std::vector<uint8_t>(bytes.data(), bytes.data() + n);
}

cule::EnvConfig env_config(int num_envs, const py::kwargs& options) {
  cule::EnvConfig c;
  c.num_envs = num_envs;
  for (const auto& item : options) {
    const std::string key = py::str(item.first);
    const py::handle v = item.second;
    if (key == "num_threads")
      c.num_threads = v.cast<int>();
    else if (key == "thread_affinity_offset")
      c.thread_affinity_offset = v.cast<int>();
    else if (key == "batch_size")
      c.batch_size = v.cast<int>();
    else if (key == "frameskip")
      c.frameskip = v.cast<int>();
    else if (key == "repeat_action_probability")
      c.repeat_action_probability = v.cast<float>();
    else if (key == "full_action_space")
      c.full_action_space = v.cast<bool>();
    else if (key == "mode")
      c.mode = v.is_none() ? -1 : v.cast<int>();
    else if (key == "difficulty")
      c.difficulty = v.is_none() ? -1 : v.cast<int>();
    else if (key == "max_num_frames_per_episode")
      c.max_num_frames_per_episode = v.is_none() ? 0 : v.cast<int>();
    else if (key == "count_reset_frames")
      c.count_reset_frames = v.cast<bool>();
    else if (key == "noop_max")
      c.noop_max = v.cast<int>();
    else if (key == "use_fire_reset")
      c.use_fire_reset = v.cast<bool>();
    else if (key == "episodic_life")
      c.episodic_life = v.cast<bool>();
    else if (key == "life_loss_info")
      c.life_loss_info = v.cast<bool>();
    else if (key == "reward_clipping")
      c.reward_clipping = v.cast<bool>();
    else if (key == "obs_type")
      c.obs_type = cule::obs_type_from_string(v.cast<std::string>());
    else if (key == "img_height")
      c.img_height = v.cast<int>();
    else if (key == "img_width")
      c.img_width = v.cast<int>();
    else if (key == "maxpool")
      c.maxpool = v.cast<bool>();
    else if (key == "stack_num")
      c.stack_num = v.cast<int>();
    else if (key == "autoreset_mode")
      c.autoreset_mode = cule::autoreset_mode_from_string(v.cast<std::string>());
    else if (key == "seed")
      c.seed = v.cast<uint64_t>();
    else if (key == "draw_all_frames")
      c.draw_all_frames = v.cast<bool>();
    else if (key == "run_full_resets")
      c.run_full_resets = v.cast<bool>();
    else if (key == "device") {
      const std::string d = v.cast<std::string>();
      if (d == "cpu")
        c.device = cule::Device::cpu();
      else if (d == "cuda")
        c.device = cule::Device::cuda(0);
      else if (d.rfind("cuda:", 0) == 0)
        c.device = cule::Device::cuda(std::stoi(d.substr(5)));
      else
        throw cule::Error("device: '" + d +
                          "' is not a device; expected 'cpu', 'cuda' or 'cuda:N'");
    } else {
      throw cule::Error("option '" + key + "' is not an option of cule environments");
    }
  }
  return c;
}

// One ROM, or a list of them for a batch of several games.
std::vector<cule::Rom> roms_from(const py::object& rom) {
  std::vector<cule::Rom> roms;
  if (py::isinstance<py::list>(rom) || py::isinstance<py::tuple>(rom)) {
    for (const py::handle item : rom)
      roms.push_back(rom_from(py::reinterpret_borrow<py::object>(item)));
  } else {
    roms.push_back(rom_from(rom));
  }
  return roms;
}

// Seeds from Python: `count` integers, 0 or more (empty for None).
std::vector<uint64_t> env_seeds(const py::object& seeds, int count) {
  std::vector<uint64_t> s;
  if (seeds.is_none()) return s;
  auto a = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(seeds);
  if (!a || a.ndim() != 1 || a.shape(0) != count) {
    throw cule::Error("seeds: expected one integer per environment reset (" +
                      std::to_string(count) + ")");
  }
  for (int i = 0; i < count; ++i) {
    if (a.data()[i] < 0) throw cule::Error("seeds: seeds must be 0 or more");
    s.push_back(uint64_t(a.data()[i]));
  }
  return s;
}

void bind_async_vec_env(py::module_& m) {
  using cule::AsyncVecEnv;
  py::class_<AsyncVecEnv> env(m, "AsyncVecEnv", R"doc(
Asynchronous batches of ALE environments on CPU threads (AtariVectorEnv's
batch_size < num_envs): recv() returns the first batch_size environments to
finish, row k being environment env_ids[k], and send() steps those. Buffers
are numpy views that every recv rewrites in place.)doc");
  env.def(py::init([](const py::object& rom, int num_envs, const py::kwargs& options) {
            const cule::EnvConfig config = env_config(num_envs, options);
            const std::vector<cule::Rom> roms = roms_from(rom);
            py::gil_scoped_release release;
            return std::make_unique<AsyncVecEnv>(roms, config);
          }),
          py::arg("rom"), py::arg("num_envs") = 1)
      .def(
          "reset",
          [](AsyncVecEnv& env, const py::object& seeds) {
            const std::vector<uint64_t> s = env_seeds(seeds, env.num_envs());
            py::gil_scoped_release release;
            env.reset(s.empty() ? nullptr : s.data());
          },
          py::arg("seeds") = py::none(),
          "Waits for the tasks under way, starts new episodes everywhere (rebuilt with one "
          "seed per environment when given) and receives the first batch.")
      .def(
          "send",
          [](AsyncVecEnv& env, const py::object& actions, const py::object& paddle_strengths) {
            const std::vector<int32_t> a =
                env_integers(actions, env.batch_size(), "actions", "batch_size");
            const std::vector<float> p = env_strengths(paddle_strengths, env.batch_size());
            py::gil_scoped_release release;
            env.send(a.data(), p.empty() ? nullptr : p.data());
          },
          py::arg("actions"), py::arg("paddle_strengths") = py::none(),
          "Starts a step of the last batch received: actions[k] for env_ids[k].")
      .def("recv", &AsyncVecEnv::recv, py::call_guard<py::gil_scoped_release>(),
           "Waits for the next batch_size environments to finish.")
      .def_property_readonly("device", [](const AsyncVecEnv&) { return std::string("cpu"); })
      .def_property_readonly("num_envs", &AsyncVecEnv::num_envs)
      .def_property_readonly("batch_size", &AsyncVecEnv::batch_size)
      .def_property_readonly("num_threads", &AsyncVecEnv::num_threads)
      .def_property_readonly("game", [](const AsyncVecEnv& e) { return e.envs().game(); })
      .def_property_readonly("games", [](const AsyncVecEnv& e) { return e.envs().games(); })
      .def_property_readonly("frames_per_second",
                             [](const AsyncVecEnv& e) { return e.envs().frames_per_second(); })
      .def_property_readonly("action_set",
                             [](const AsyncVecEnv& e) { return e.envs().action_set(); })
      .def_property_readonly("observation_shape",
                             [](const AsyncVecEnv& e) { return e.envs().observation_shape(); })
      .def_property_readonly(
          "autoreset_mode",
          [](const AsyncVecEnv& e) { return cule::to_string(e.envs().config().autoreset_mode); })
      .def_property_readonly(
          "obs_type",
          [](const AsyncVecEnv& e) { return cule::to_string(e.envs().config().obs_type); })
      .def_property_readonly("observations",
                             [](py::object self) {
                               const auto& e = self.cast<const AsyncVecEnv&>();
                               return buffer_view<AsyncVecEnv>(
                                   e.observations(),
                                   batch_shape(e.batch_size(), e.envs().observation_shape()), self);
                             })
      .def_property_readonly(
          "final_observations",
          [](py::object self) -> py::object {
            const auto& e = self.cast<const AsyncVecEnv&>();
            if (e.envs().config().autoreset_mode != cule::AutoresetMode::same_step) {
              return py::none();
            }
            return buffer_view<AsyncVecEnv>(
                e.final_observations(), batch_shape(e.batch_size(), e.envs().observation_shape()),
                self);
          })
      .def(
          "screen",
          [](py::object self, int env) {
            const auto& e = self.cast<const AsyncVecEnv&>();
            return view(e.envs().screen(env), {e.envs().screen_height(), cule::kScreenWidth}, self);
          },
          py::arg("env"),
          "Environment `env`'s last frame as palette indices, a read-only view; read it only "
          "for an environment of the last batch received.")
      .def(
          "ram",
          [](py::object self, int env) {
            const auto& e = self.cast<const AsyncVecEnv&>();
            return view(e.envs().ram(env), {128}, self);
          },
          py::arg("env"),
          "Environment `env`'s RIOT RAM, a read-only view; as screen(), only for an environment "
          "of the last batch received.");

  // One value per row of the batch, rewritten in place by every recv.
  def_per_env(env, "env_ids", &AsyncVecEnv::env_ids);
  def_per_env(env, "rewards", &AsyncVecEnv::rewards);
  def_per_env(env, "terminated", &AsyncVecEnv::terminated);
  def_per_env(env, "truncated", &AsyncVecEnv::truncated);
  def_per_env(env, "autoreset", &AsyncVecEnv::autoreset);
  def_per_env(env, "lives", &AsyncVecEnv::lives);
  def_per_env(env, "episode_frame_numbers", &AsyncVecEnv::episode_frame_numbers);
  def_per_env(env, "frame_numbers", &AsyncVecEnv::frame_numbers);
  def_per_env(env, "episode_returns", &AsyncVecEnv::episode_returns);
  def_per_env(env, "episode_lengths", &AsyncVecEnv::episode_lengths);
}

void bind_vec_env(py::module_& m) {
  using cule::VecEnv;
  py::class_<VecEnv::Snapshot, std::shared_ptr<VecEnv::Snapshot>>(
      m, "VecEnvState", "A snapshot of some environments of a VecEnv, for restore_state.");

  py::class_<VecEnv> env(m, "VecEnv", R"doc(
A batch of ALE environments of one game, stepped together. Buffers are numpy
views that every reset and step rewrites in place.)doc");
  env.def(py::init([](const py::object& rom, int num_envs, const py::kwargs& options) {
            const cule::EnvConfig config = env_config(num_envs, options);
            const std::vector<cule::Rom> roms = roms_from(rom);
            py::gil_scoped_release release;
            return std::make_unique<VecEnv>(roms, config);
          }),
          py::arg("rom"), py::arg("num_envs") = 1)
      .def(
          "reset",
          [](VecEnv& env, const py::object& mask, const py::object& seeds, uintptr_t stream) {
            std::vector<uint8_t> m;
            if (!mask.is_none()) m = env_mask(mask, env.num_envs());
            int count = env.num_envs();
            if (!m.empty()) count = int(std::count(m.begin(), m.end(), 1));
            const std::vector<uint64_t> s = env_seeds(seeds, count);
            py::gil_scoped_release release;
            env.reset(m.empty() ? nullptr : m.data(), s.empty() ? nullptr : s.data(),
                      reinterpret_cast<void*>(stream));
          },
          py::arg("mask") = py::none(), py::arg("seeds") = py::none(), py::arg("stream") = 0,
          "Start new episodes where mask is True (everywhere when None). On CUDA the work "
          "is queued on `stream` (a cudaStream_t as an integer; 0: the default stream).")
      .def(
          "step",
          [](VecEnv& env, const py::object& actions, const py::object& paddle_strengths,
             uintptr_t stream) {
            const std::vector<int32_t> a = env_integers(actions, env.num_envs(), "actions");
            const std::vector<float> p = env_strengths(paddle_strengths, env.num_envs());
            py::gil_scoped_release release;
            env.step(a.data(), p.empty() ? nullptr : p.data(), reinterpret_cast<void*>(stream));
          },
          py::arg("actions"), py::arg("paddle_strengths") = py::none(), py::arg("stream") = 0,
          "One step of every environment; actions (host memory) index action_set.")
      .def(
          "send",
          [](VecEnv& env, const py::object& actions, const py::object& paddle_strengths,
             uintptr_t stream) {
            const std::vector<int32_t> a = env_integers(actions, env.num_envs(), "actions");
            const std::vector<float> p = env_strengths(paddle_strengths, env.num_envs());
            py::gil_scoped_release release;
            env.send(a.data(), p.empty() ? nullptr : p.data(), reinterpret_cast<void*>(stream));
          },
          py::arg("actions"), py::arg("paddle_strengths") = py::none(), py::arg("stream") = 0,
          "Starts a step and returns at once; the buffers hold its results after recv().")
      .def("recv", &VecEnv::recv, py::call_guard<py::gil_scoped_release>(),
           "Waits for the step send() started (and raises what it raised).")
      .def(
          "step_device",
          [](VecEnv& env, uintptr_t actions, uintptr_t paddle_strengths, uintptr_t stream) {
            if (!actions) throw cule::Error("actions: expected a device pointer, got 0");
            py::gil_scoped_release release;
            env.step_device(reinterpret_cast<const int32_t*>(actions),
                            reinterpret_cast<const float*>(paddle_strengths),
                            reinterpret_cast<void*>(stream));
          },
          py::arg("actions"), py::arg("paddle_strengths") = 0, py::arg("stream") = 0,
          "One step with num_envs int32 action indices (and float strengths) already in the "
          "device's memory, given as addresses; out-of-range actions are reported by "
          "check_device_errors().")
      .def(
          "send_device",
          [](VecEnv& env, uintptr_t actions, uintptr_t paddle_strengths, uintptr_t stream) {
            if (!actions) throw cule::Error("actions: expected a device pointer, got 0");
            py::gil_scoped_release release;
            env.send_device(reinterpret_cast<const int32_t*>(actions),
                            reinterpret_cast<const float*>(paddle_strengths),
                            reinterpret_cast<void*>(stream));
          },
          py::arg("actions"), py::arg("paddle_strengths") = 0, py::arg("stream") = 0,
          "send() with the actions in the device's memory, as step_device() takes them.")
      .def("check_device_errors", &VecEnv::check_device_errors,
           py::call_guard<py::gil_scoped_release>(),
           "Waits for the device; raises ValueError if a step_device() met a bad action.")
      .def("synchronize", &VecEnv::synchronize, py::call_guard<py::gil_scoped_release>(),
           "Waits until the queued resets and steps have run.")
      .def_property_readonly("device",
                             [](const VecEnv& e) {
                               return e.device().kind == cule::Device::Kind::cpu
                                          ? std::string("cpu")
                                          : "cuda:" + std::to_string(e.device().index);
                             })
      .def_property_readonly("num_envs", &VecEnv::num_envs)
      .def_property_readonly("num_threads", &VecEnv::num_threads)
      .def_property_readonly("game", &VecEnv::game)
      .def_property_readonly("games", &VecEnv::games)
      .def_property_readonly("frames_per_second", &VecEnv::frames_per_second,
                             "The TV's frames a second: 60 (NTSC) or 50 (PAL).")
      .def("game_of", &VecEnv::game_of, py::arg("env"), "Which of `games` environment `env` plays.")
      .def("resets_copied", &VecEnv::resets_copied, py::arg("game") = 0,
           "Whether game `game`'s resets are copies of their result rather than ALE's whole "
           "reset (see run_full_resets).")
      .def_property_readonly("action_set", &VecEnv::action_set)
      .def_property_readonly("observation_shape", &VecEnv::observation_shape)
      .def_property_readonly(
          "autoreset_mode",
          [](const VecEnv& e) { return cule::to_string(e.config().autoreset_mode); })
      .def_property_readonly("obs_type",
                             [](const VecEnv& e) { return cule::to_string(e.config().obs_type); })
      .def_property_readonly("observations",
                             [](py::object self) {
                               const auto& e = self.cast<const VecEnv&>();
                               return buffer_view<VecEnv>(
                                   e.observations(),
                                   batch_shape(e.num_envs(), e.observation_shape()), self);
                             })
      .def_property_readonly("final_observations",
                             [](py::object self) -> py::object {
                               const auto& e = self.cast<const VecEnv&>();
                               if (e.config().autoreset_mode != cule::AutoresetMode::same_step) {
                                 return py::none();
                               }
                               return buffer_view<VecEnv>(
                                   e.final_observations(),
                                   batch_shape(e.num_envs(), e.observation_shape()), self);
                             })
      .def(
          "screen",
          [](py::object self, int env) {
            const auto& e = self.cast<const VecEnv&>();
            return view(e.screen(env), {e.screen_height(), cule::kScreenWidth}, self);
          },
          py::arg("env"), "One environment's last frame as palette indices; a read-only view.")
      .def(
          "screen_rgb",
          [](const VecEnv& e, int env) {
            py::array_t<uint8_t> out({e.screen_height(), cule::kScreenWidth, 3});
            e.screen_rgb(env, out.mutable_data());
            return out;
          },
          py::arg("env"),
          "One environment's last frame in RGB with its game's palette, shape (height, 160, "
          "3), as ALE's getScreenRGB; a new array.")
      .def(
          "screen_grayscale",
          [](const VecEnv& e, int env) {
            py::array_t<uint8_t> out({e.screen_height(), cule::kScreenWidth});
            e.screen_grayscale(env, out.mutable_data());
            return out;
          },
          py::arg("env"),
          "One environment's last frame in grey with its game's palette, shape (height, 160), "
          "as ALE's getScreenGrayscale; a new array.")
      .def(
          "ram",
          [](py::object self, int env) {
            const auto& e = self.cast<const VecEnv&>();
            return view(e.ram(env), {128}, self);
          },
          py::arg("env"), "One environment's RIOT RAM; a read-only view.")
      .def(
          "clone_state",
          [](const VecEnv& env, const py::object& mask) {
            std::vector<uint8_t> m;
            if (!mask.is_none()) m = env_mask(mask, env.num_envs());
            return std::const_pointer_cast<VecEnv::Snapshot>(
                env.clone_state(m.empty() ? nullptr : m.data()));
          },
          py::arg("mask") = py::none(), "A snapshot of the environments where mask is True.")
      .def("restore_state", &VecEnv::restore_state, py::arg("state"),
           py::call_guard<py::gil_scoped_release>());

  // One value per environment, rewritten in place by every reset and step.
  def_per_env(env, "rewards", &VecEnv::rewards);
  def_per_env(env, "terminated", &VecEnv::terminated);
  def_per_env(env, "truncated", &VecEnv::truncated);
  def_per_env(env, "autoreset", &VecEnv::autoreset);
  def_per_env(env, "lives", &VecEnv::lives);
  def_per_env(env, "episode_frame_numbers", &VecEnv::episode_frame_numbers);
  def_per_env(env, "frame_numbers", &VecEnv::frame_numbers);
  def_per_env(env, "episode_returns", &VecEnv::episode_returns);
  def_per_env(env, "episode_lengths", &VecEnv::episode_lengths);

  m.def(
      "list_games",
      [] {
        std::vector<std::string> ids;
        for (const cule::GameModes& g : cule::all_game_modes()) ids.push_back(g.rom_id);
        std::sort(ids.begin(), ids.end());
        return ids;
      },
      "The ale-py ids of every game cule has ALE's settings for, sorted.");
  m.def(
      "project_games",
      [] {
        std::vector<std::string> ids;
        for (int i = cule::kNumAleGames; i < cule::kNumGames; ++i) {
          ids.push_back(cule::game_id(static_cast<cule::Game>(i)));
        }
        return ids;
      },
      "The ids of the project's own games (roms/*.asm), which ALE does not have.");
  m.def(
      "palette_rgb",
      [](bool pal) {
        const cule::Palette& palette = cule::palette_for(pal);
        py::array_t<uint8_t> out({256, 3});
        std::copy(&palette.rgb[0][0], &palette.rgb[0][0] + 256 * 3, out.mutable_data());
        return out;
      },
      py::arg("pal") = false,
      "ALE's RGB for each of the 256 frame values (NTSC, or PAL when pal), shape (256, 3).");
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "cule's compiled core (use the `cule` package)";
  m.attr("__version__") = CULE_VERSION;

  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const cule::FileError& e) {
      PyErr_SetString(PyExc_FileNotFoundError, e.what());
    } catch (const cule::DeviceError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const cule::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  py::class_<cule::CpuRunResult>(m, "CpuRunResult", "How a run of a FlatMachine ended.")
      .def_readonly("pc", &cule::CpuRunResult::pc)
      .def_readonly("instructions", &cule::CpuRunResult::instructions)
      .def_readonly("cycles", &cule::CpuRunResult::cycles)
      .def_readonly("jammed", &cule::CpuRunResult::jammed)
      .def_readonly("trapped", &cule::CpuRunResult::trapped)
      .def("__repr__", [](const cule::CpuRunResult& r) {
        return "CpuRunResult(pc=" + std::to_string(r.pc) +
               ", instructions=" + std::to_string(r.instructions) +
               ", cycles=" + std::to_string(r.cycles) +
               ", jammed=" + (r.jammed ? "True" : "False") +
               ", trapped=" + (r.trapped ? "True" : "False") + ")";
      });

  py::class_<cule::FlatMachine>(m, "FlatMachine",
                                "A 6502 over 64 KiB of flat RAM, for CPU test images.")
      .def(py::init(&flat_machine_from_bytes), py::arg("image"), py::arg("load_address") = 0)
      .def_static("from_file", &cule::FlatMachine::from_file, py::arg("path"),
                  py::arg("load_address") = 0)
      .def("run", &cule::FlatMachine::run, py::arg("start_pc"), py::arg("max_instructions"),
           py::call_guard<py::gil_scoped_release>(),
           "Set PC and run until a trap (PC stops moving), a JAM, or max_instructions.")
      .def_property_readonly("memory", [](const cule::FlatMachine& machine) {
        const auto& memory = machine.memory();
        return py::bytes(reinterpret_cast<const char*>(memory.data()), memory.size());
      });

  py::class_<cule::Console::Snapshot>(m, "ConsoleState",
                                      "A snapshot of a Console, for restore_state.");

  py::class_<cule::Console>(m, "Console", R"doc(
One Atari 2600, driven the way ALE drives its own: built from a ROM (a path or
the image's bytes) and reset as ALE's loadROM does; act(action) emulates one
frame with one of ALE's 18 actions.)doc")
      .def(py::init([](const py::object& rom, uint32_t seed) {
             return cule::Console(rom_from(rom), seed);
           }),
           py::arg("rom"), py::arg("seed") = 0)
      .def_property("mode", &cule::Console::mode, &cule::Console::set_mode,
                    "The game mode used from the next reset (ALE's default at first).")
      .def_property_readonly("available_modes", &cule::Console::available_modes,
                             "ALE's getAvailableModes.")
      .def_property_readonly("available_difficulties", &cule::Console::available_difficulties,
                             "ALE's getAvailableDifficulties.")
      .def_property("difficulty", &cule::Console::difficulty, &cule::Console::set_difficulty,
                    "The difficulty switches from the next frame on, as ALE's setDifficulty "
                    "(bit 0 sets the left one to A, bit 1 the right one); 0 at first.")
      .def("reset", &cule::Console::reset, py::call_guard<py::gil_scoped_release>(),
           "ALE's reset_game sequence.")
      .def("act", py::overload_cast<int, float>(&cule::Console::act), py::arg("action"),
           py::arg("paddle_strength") = 1.0f, py::call_guard<py::gil_scoped_release>(),
           "Emulate one frame with action 0-17; paddle games turn the paddle by "
           "|paddle_strength| of ALE's step.")
      .def_property_readonly("game", [](const cule::Console& c) { return c.rom().name(); })
      .def_property_readonly("md5", [](const cule::Console& c) { return c.rom().md5(); })
      .def_property_readonly(
          "mapper", [](const cule::Console& c) { return cule::mapper_name(c.rom().mapper()); })
      .def_property_readonly("frame_number", &cule::Console::frame_number)
      .def(
          "screen",
          [](py::object self) {
            const auto& c = self.cast<const cule::Console&>();
            return view(c.screen(), {c.height(), c.width()}, self);
          },
          "The last frame as palette indices, shape (height, 160); a read-only view.")
      .def(
          "screen_rgb",
          [](const cule::Console& c) {
            py::array_t<uint8_t> out({c.height(), c.width(), 3});
            c.screen_rgb(out.mutable_data());
            return out;
          },
          "The last frame as RGB, shape (height, 160, 3), as ALE's getScreenRGB.")
      .def(
          "screen_grayscale",
          [](const cule::Console& c) {
            py::array_t<uint8_t> out({c.height(), c.width()});
            c.screen_grayscale(out.mutable_data());
            return out;
          },
          "The last frame as luminance, shape (height, 160), as ALE's getScreenGrayscale.")
      .def(
          "ram",
          [](py::object self) {
            const auto& c = self.cast<const cule::Console&>();
            return view(c.ram(), {128}, self);
          },
          "The 128 bytes of RIOT RAM; a read-only view.")
      .def(
          "set_ram",
          [](cule::Console& c, int index, int value) {
            if (value < 0 || value > 255) {
              throw cule::Error("value: " + std::to_string(value) +
                                " is not a byte; expected 0-255");
            }
            c.set_ram(index, uint8_t(value));
          },
          py::arg("index"), py::arg("value"), "ALE's setRAM: RAM byte index (0-127) becomes value.")
      .def_property_readonly(
          "has_rules", &cule::Console::has_rules,
          "Whether ALE has game settings (rewards, terminal, lives) for the ROM.")
      .def_property_readonly("reward", &cule::Console::reward,
                             "ALE's reward for the last frame emulated.")
      .def_property_readonly("terminal", &cule::Console::terminal,
                             "ALE's game over, by the game's settings.")
      .def_property_readonly("lives", &cule::Console::lives, "ALE's lives().")
      .def("clone_state", &cule::Console::clone_state)
      .def("restore_state", &cule::Console::restore_state, py::arg("state"));

  m.def("cuda_device_count", &cule::cuda_device_count,
        "Number of usable CUDA devices (0 without CUDA support, driver or device).");

  bind_game_rules(m);
  bind_cuda_buffer(m);
  bind_vec_env(m);
  bind_async_vec_env(m);
}
