"""cule.make(device="cuda"): the same results as device="cpu", zero-copy
DLPack export into torch, device actions, and the error where no GPU is.
The GPU tests skip themselves, with the reason, on machines without one."""

import os

import numpy as np
import pytest

import cule
from cule import _core

TESTDATA = os.environ.get("CULE_TESTDATA_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "testdata"))
TETRIS = os.path.join(TESTDATA, "roms", "tetris.bin")

needs_gpu = pytest.mark.skipif(
    _core.cuda_device_count() == 0,
    reason="no CUDA device: the CPU-against-GPU runs are skipped (benchmarks/gpu/check.sh runs them)",
)


def _cpu_and_gpu(rom, num_envs, reset_seed, **options):
    """The same environments on the CPU and on the GPU, both reset with `reset_seed`."""
    cpu = cule.make(rom, num_envs, device="cpu", **options)
    gpu = cule.make(rom, num_envs, device="cuda", **options)
    cpu.reset(seed=reset_seed)
    gpu.reset(seed=reset_seed)
    return cpu, gpu


def _assert_same_step(cpu_result, gpu_result, step):
    """A step's observations, rewards and flags alike on both backends."""
    for name, a, b in zip(("obs", "reward", "terminated", "truncated"), cpu_result[:4], gpu_result[:4]):
        np.testing.assert_array_equal(a, b.copy_to_host(), err_msg=f"{name} at step {step}")


def test_cuda_without_a_device_is_a_clear_error():
    if _core.cuda_device_count() > 0:
        pytest.skip("a CUDA device is present")
    with pytest.raises(RuntimeError, match="device"):
        cule.make(TETRIS, 2, device="cuda")


def test_unknown_device_names_the_argument():
    with pytest.raises(ValueError, match="device"):
        cule.make(TETRIS, 2, device="tpu")


@needs_gpu
def test_gpu_steps_equal_cpu_steps():
    options = dict(repeat_action_probability=0.25, seed=5)
    cpu, gpu = _cpu_and_gpu(TETRIS, 40, 9, **options)
    rng = np.random.default_rng(0)
    for step in range(150):
        actions = rng.integers(0, cpu.single_action_space.n, 40)
        c = cpu.step(actions)
        g = gpu.step(actions)
        _assert_same_step(c, g, step)
        assert c[4].keys() == g[4].keys()
        for key, a in c[4].items():
            b = g[4][key]
            b = b.copy_to_host() if hasattr(b, "copy_to_host") else b
            np.testing.assert_array_equal(a, b, err_msg=f"info[{key!r}] at step {step}")


@needs_gpu
def test_torch_shares_the_device_buffers_and_device_actions_step():
    torch = pytest.importorskip("torch")
    env = cule.make(TETRIS, 64, device="cuda")
    obs, _ = env.reset(seed=0)
    tensor = torch.from_dlpack(obs)
    assert tensor.is_cuda and tensor.shape == (64, 4, 84, 84)
    assert tensor.data_ptr() == obs.__cuda_array_interface__["data"][0]
    actions = torch.randint(0, env.single_action_space.n, (64,), device="cuda", dtype=torch.int32)
    before = tensor.clone()
    for _ in range(20):
        obs, *_ = env.step(actions)
    assert torch.from_dlpack(obs).data_ptr() == tensor.data_ptr()
    assert not torch.equal(before, tensor)  # rewritten in place, seen without a copy
    env.core.check_device_errors()
    bad = torch.full((64,), 99, device="cuda", dtype=torch.int32)
    env.step(bad)
    with pytest.raises(ValueError, match="actions"):
        env.core.check_device_errors()
    with pytest.raises(ValueError, match="int32"):
        env.step(actions.long())


def test_dlpack_export_shares_memory_and_keeps_its_owner():
    """The capsule CUDA buffers hand out, over host memory so that CI without
    a GPU checks it: layout and dtypes as torch reads them, no copy, and the
    owner kept alive by the consumer."""
    import gc

    torch = pytest.importorskip("torch")
    for dtype in (np.uint8, np.float32, np.int32, np.int64, np.bool_):
        array = (np.arange(24).reshape(2, 3, 4) % 3).astype(dtype)
        buffer = _core._host_buffer_for_tests(array)
        assert buffer.__dlpack_device__() == (1, 0)
        tensor = torch.from_dlpack(buffer)
        assert tuple(tensor.shape) == (2, 3, 4)
        assert tensor.data_ptr() == array.__array_interface__["data"][0]
        np.testing.assert_array_equal(tensor.numpy(), array)
    array = np.full(1000, 7, np.uint8)
    tensor = torch.from_dlpack(_core._host_buffer_for_tests(array))
    del array
    gc.collect()
    assert int(tensor.sum()) == 7000
    # A capsule nobody consumed frees what it holds.
    capsule = _core._host_buffer_for_tests(np.zeros(3, np.uint8)).__dlpack__()
    del capsule
    gc.collect()


@needs_gpu
def test_a_step_with_device_actions_replays_from_a_torch_cuda_graph():
    torch = pytest.importorskip("torch")
    options = dict(repeat_action_probability=0.25, max_num_frames_per_episode=500, seed=2)
    cpu, gpu = _cpu_and_gpu(TETRIS, 32, 4, **options)
    torch.cuda.synchronize()
    actions = torch.zeros(32, device="cuda", dtype=torch.int32)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):  # captured on torch's side stream, not run
        obs, reward, *_ = gpu.step(actions)
    rng = np.random.default_rng(1)
    for step in range(120):
        chosen = rng.integers(0, cpu.single_action_space.n, 32)
        c = cpu.step(chosen)
        actions.copy_(torch.from_numpy(chosen.astype(np.int32)))
        graph.replay()
        torch.cuda.synchronize()
        np.testing.assert_array_equal(c[0], obs.copy_to_host(), err_msg=f"obs at step {step}")
        np.testing.assert_array_equal(c[1], reward.copy_to_host(), err_msg=f"reward at step {step}")
    gpu.core.check_device_errors()


@needs_gpu
def test_steps_under_changing_torch_streams_run_in_order():
    """Steps follow torch's current stream; the batch orders each after the
    last wherever that ran, and torch.from_dlpack after both."""
    torch = pytest.importorskip("torch")
    options = dict(repeat_action_probability=0.25, max_num_frames_per_episode=60, seed=4)
    cpu, gpu = _cpu_and_gpu(TETRIS, 1024, 7, **options)
    side = torch.cuda.Stream()
    rng = np.random.default_rng(3)
    for step in range(40):
        actions = rng.integers(0, cpu.single_action_space.n, 1024)
        c = cpu.step(actions)
        with torch.cuda.stream(side if step % 2 else torch.cuda.default_stream()):
            g = gpu.step(actions)
        if step % 10 == 9:
            with torch.cuda.stream(torch.cuda.Stream()):  # a consumer on a third stream
                seen = torch.from_dlpack(g[0]).clone()
                torch.cuda.current_stream().synchronize()
            np.testing.assert_array_equal(c[0], seen.cpu().numpy(), err_msg=f"obs at step {step}")
            _assert_same_step(c, g, step)
    gpu.core.check_device_errors()


@needs_gpu
def test_step_async_with_device_actions_gives_what_the_cpu_backend_gives():
    torch = pytest.importorskip("torch")
    options = dict(repeat_action_probability=0.25, max_num_frames_per_episode=400, seed=3)
    cpu, gpu = _cpu_and_gpu(TETRIS, 16, 6, **options)
    rng = np.random.default_rng(2)
    for step in range(100):
        chosen = rng.integers(0, cpu.single_action_space.n, 16)
        c = cpu.step(chosen)
        gpu.step_async(torch.from_numpy(chosen.astype(np.int32)).cuda())
        _assert_same_step(c, gpu.step_wait(), step)
    gpu.step_async(torch.zeros(16, dtype=torch.int32, device="cuda"))
    with pytest.raises(ValueError, match="send: the step sent before has not been received"):
        gpu.step_async(torch.zeros(16, dtype=torch.int32, device="cuda"))
    gpu.step_wait()
    with pytest.raises(ValueError, match="recv"):
        gpu.step_wait()
    gpu.core.check_device_errors()


def _pong_rom():
    """Pong's ROM (a paddle game): from $CULE_GPU_ROM_DIR, where check.sh puts
    the games, or from ale-py."""
    path = os.path.join(os.environ.get("CULE_GPU_ROM_DIR", ""), "pong.bin")
    if os.path.exists(path):
        return path
    roms = pytest.importorskip("ale_py.roms", reason="no Pong ROM: neither $CULE_GPU_ROM_DIR nor ale-py")
    return str(roms.get_rom_path("pong"))


@needs_gpu
def test_continuous_device_actions_equal_the_cpu_backends():
    torch = pytest.importorskip("torch")
    pong = _pong_rom()  # the radius is the paddles' strength
    cpu, gpu = _cpu_and_gpu(pong, 48, 6, continuous=True, seed=3)
    rng = np.random.default_rng(2)
    for step in range(100):
        # Points well inside or outside the threshold, so that the device's
        # cos and sin (PyTorch's) map them as the host's (NumPy's) do.
        actions = np.stack(
            [rng.choice([0.2, 0.7, 1.0], 48), rng.integers(-4, 4, 48) * np.pi / 4, rng.choice([0.1, 0.9], 48)],
            axis=1,
        ).astype(np.float32)
        c = cpu.step(actions)
        _assert_same_step(c, gpu.step(torch.from_numpy(actions).cuda()), step)
    gpu.core.check_device_errors()


@needs_gpu
def test_cule_bench_measures_the_gpu(capsys):
    """cule-bench on the device, its actions CUDA tensors where torch is
    installed: a row of frames/s per count of environments."""
    from cule import bench

    bench.main(["--game", TETRIS, "--device", "cuda", "--envs", "64,256", "--steps", "3", "--peers", "none"])
    rows = [line.split("|") for line in capsys.readouterr().out.splitlines() if line.startswith(f"| {TETRIS} |")]
    assert [int(row[2]) for row in rows] == [64, 256]
    assert all(float(row[3]) > 0 for row in rows)


@needs_gpu
def test_gpu_renders_the_cpus_frames():
    cpu, gpu = _cpu_and_gpu(TETRIS, 4, 2, render_mode="rgb_array")
    rng = np.random.default_rng(3)
    for _ in range(20):
        actions = rng.integers(0, cpu.single_action_space.n, 4)
        cpu.step(actions)
        gpu.step(actions)
    for i, (a, b) in enumerate(zip(cpu.render(), gpu.render())):
        np.testing.assert_array_equal(a, b, err_msg=f"environment {i}")
