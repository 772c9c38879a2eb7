"""cule.make: AtariVectorEnv's options against AtariVectorEnv itself, the
Gymnasium vector-env contract, zero-copy buffers, and input checks."""

import os
import sys

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the adapter implements gymnasium's VectorEnv")

import cule  # noqa: E402
from vector_compare import compare  # noqa: E402

try:
    from ale_py.vector_env import AtariVectorEnv  # noqa: F401
except ImportError:
    AtariVectorEnv = None
needs_ale_vector = pytest.mark.skipif(AtariVectorEnv is None, reason="ale-py's AtariVectorEnv is the reference")

OPTION_CASES = [
    ("breakout", dict(grayscale=False)),
    ("breakout", dict(episodic_life=True)),
    ("breakout", dict(life_loss_info=True)),
    ("space_invaders", dict(autoreset_mode="SameStep")),
    ("pong", dict(frameskip=1, stack_num=1)),
    ("seaquest", dict(frameskip=3, maxpool=False)),
    ("ms_pacman", dict(img_height=105, img_width=80)),
    ("ms_pacman", dict(img_height=210, img_width=160, grayscale=False, stack_num=2)),
    ("enduro", dict(full_action_space=True, reward_clipping=False)),
    ("qbert", dict(max_num_frames_per_episode=500)),
    ("montezuma_revenge", dict(use_fire_reset=False)),
    ("pong", dict(continuous=True)),  # a paddle game: the radius is the paddle's strength
    ("breakout", dict(continuous=True, continuous_action_threshold=0.3)),
]


@needs_ale_vector
@pytest.mark.parametrize("game,options", OPTION_CASES, ids=[f"{g}-{'-'.join(o)}" for g, o in OPTION_CASES])
def test_options_match_atari_vector_env(game, options):
    problem, ends = compare(game, 600, **options)
    assert problem is None, problem
    if "episodic_life" in options or "max_num_frames_per_episode" in options:
        assert ends > 0, "the run should end episodes"


def test_spaces_and_metadata():
    env = cule.make("pong", 3)
    assert env.num_envs == 3
    assert env.single_observation_space.shape == (4, 84, 84)
    assert env.observation_space.shape == (3, 4, 84, 84)
    assert env.single_action_space.n == 6
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    assert set(info) >= {"lives", "episode_frame_number", "frame_number", "env_id"}
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
    assert obs.dtype == np.uint8 and reward.dtype == np.float32
    assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_
    assert reward.shape == terminated.shape == truncated.shape == (3,)
    env.close()


def test_v5_preset_is_gymnasiums():
    env = cule.make("ALE/Breakout-v5")
    assert env.single_observation_space.shape == (1, 210, 160, 3)
    assert env.single_action_space.n == 4
    spec = gymnasium.spec("ALE/Breakout-v5")
    assert spec.kwargs["repeat_action_probability"] == cule.vector.V5["repeat_action_probability"]
    assert spec.kwargs["frameskip"] == cule.vector.V5["frameskip"]
    assert spec.max_episode_steps is None or spec.max_episode_steps * 4 >= 108000


@pytest.mark.parametrize("game", ["Breakout", "AirRaid"])  # a 210-line screen and a PAL one of 250
def test_v5_preset_plays_as_atari_env(game):
    """The preset's steps are AtariEnv's: the whole RGB screen, the reward,
    the truncation at ALE's episode frame number (Air Raid's reset leaves it
    at 8), step by step (sticky actions off: each library draws its own),
    the last step's observation aside."""
    atari_env = pytest.importorskip("ale_py.env", reason="ale-py's AtariEnv is the reference")
    options = dict(repeat_action_probability=0.0, max_num_frames_per_episode=202)
    ale = atari_env.AtariEnv(cule.vector.game_id(game), **options)
    want, info = ale.reset(seed=5)
    env = cule.make(f"ALE/{game}-v5", autoreset_mode="Disabled", **options)
    assert env.single_observation_space.shape == (1, *want.shape)
    # AtariEnv seeds ALE with a number drawn from the seed (info["seeds"]).
    got, _ = env.reset(seed=int(np.uint32(info["seeds"][1])))
    np.testing.assert_array_equal(got[0, 0], want)
    rng = np.random.default_rng(2)
    for step in range(100):
        action = int(rng.integers(env.single_action_space.n))
        got = env.step(np.array([action]))
        want = ale.step(action)
        assert (got[1][0], got[2][0], got[3][0]) == tuple(want[1:4]), f"{game} step {step}"
        if want[2] or want[3]:
            # Where a frame within the step ends the episode, the batch's
            # observation keeps the frame before it (AtariVectorEnv's order)
            # and AtariEnv's shows that frame (cule.env.AtariEnv does).
            break
        np.testing.assert_array_equal(got[0][0, 0], want[0], err_msg=f"{game} step {step}")
    assert want[3], "the run should end in ALE's truncation"


def test_seeded_resets_repeat_and_differ():
    def run(seed):
        env = cule.make("breakout", 2, repeat_action_probability=0.25, noop_max=30)
        env.reset(seed=seed)
        rng = np.random.default_rng(0)
        trace = [env.step(rng.integers(4, size=2))[0].copy() for _ in range(60)]
        return np.stack(trace)

    a, b, c = run(5), run(5), run(6)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_thread_count_does_not_change_results():
    def run(threads):
        env = cule.make("space_invaders", 5, num_threads=threads, repeat_action_probability=0.25)
        env.reset(seed=3)
        rng = np.random.default_rng(1)
        out = []
        for _ in range(80):
            obs, reward, term, trunc, info = env.step(rng.integers(6, size=5))
            out.append((obs.copy(), reward.copy(), term.copy(), info["lives"].copy()))
        return out

    for x, y in zip(run(1), run(2)):
        for u, v in zip(x, y):
            assert np.array_equal(u, v)


def test_reset_mask_resets_only_the_chosen_envs():
    env = cule.make("breakout", 3, noop_max=0)
    env.reset(seed=0)
    for _ in range(40):
        env.step(np.full(3, 1))
    before = env.step(np.zeros(3, np.int64))[0].copy()
    frames_before = env.core.episode_frame_numbers.copy()
    obs, info = env.reset(options={"reset_mask": np.array([False, True, False])})
    assert np.array_equal(obs[0], before[0]) and np.array_equal(obs[2], before[2])
    assert info["episode_frame_number"][1] < frames_before[1]
    assert np.all(obs[1, :3] == 0), "a fresh stack is zeros before the first frame"


def test_disabled_autoreset_waits_for_reset():
    env = cule.make("pong", 1, autoreset_mode="Disabled", max_num_frames_per_episode=40)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.DISABLED
    env.reset(seed=0)
    # Copies: the env's outputs are views of buffers the next step overwrites.
    steps = []
    for _ in range(12):
        obs, reward, _, truncated, info = env.step(np.zeros(1, np.int64))
        steps.append((obs.copy(), reward[0], bool(truncated[0]), int(info["frame_number"][0])))
    truncated = [step[2] for step in steps]
    assert truncated.index(True) == 9  # 40 frames = 10 steps of 4
    assert all(truncated[9:]), "without a reset the episode stays over"
    assert steps[9][3] - steps[8][3] == 4
    # Truncated, the episode goes no further (as ALE past a game's end): no
    # frame is emulated, nothing is earned.
    for obs, reward, _, frame_number in steps[10:]:
        assert np.array_equal(obs, steps[9][0]), "the ended episode's observation stays"
        assert reward == 0.0 and frame_number == steps[9][3]
    _, info = env.reset(options={"reset_mask": np.array([True])})
    assert not env.step(np.zeros(1, np.int64))[3][0]


def test_gymnasium_wrappers_run_unchanged():
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(cule.make("pong", 2, max_num_frames_per_episode=400))
    env.reset(seed=0)
    episodes = 0
    for _ in range(120):
        _, _, terminated, truncated, info = env.step(env.action_space.sample())
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes >= 2


def test_buffers_are_zero_copy_views():
    env = cule.make("pong", 2)
    obs, _ = env.reset(seed=0)
    address = obs.__array_interface__["data"][0]
    obs2 = env.step(np.zeros(2, np.int64))[0]
    assert obs2.__array_interface__["data"][0] == address
    shared = np.from_dlpack(obs2)
    assert shared.__array_interface__["data"][0] == address
    torch = pytest.importorskip("torch")
    assert torch.from_dlpack(obs2).data_ptr() == address


@pytest.mark.parametrize(
    "actions,message",
    [
        (np.zeros(3, np.int64), "shape"),
        (np.zeros((2, 1), np.int64), "shape"),
        (np.zeros(2, np.float32), "dtype"),
        (np.array([0, 6]), r"actions\[1\]: 6 is out of range"),
        (np.array([-1, 0]), r"actions\[0\]"),
    ],
)
def test_bad_actions_are_named(actions, message):
    env = cule.make("pong", 2)
    env.reset(seed=0)
    before = env.core.observations.copy()
    with pytest.raises(ValueError, match=message):
        env.step(actions)
    assert np.array_equal(env.core.observations, before)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(frameskip=0), "frameskip"),
        (dict(stack_num=0), "stack_num"),
        (dict(img_height=300), "img_height"),
        (dict(obs_type="depth"), "obs_type"),
        (dict(autoreset_mode="Later"), "autoreset_mode"),
        (dict(repeat_action_probability=2.0), "repeat_action_probability"),
        (dict(mode=99), "mode"),
        (dict(no_such_option=1), "no_such_option"),
        (dict(device="tpu"), "device"),
        (dict(preset="v9"), "preset"),
    ],
)
def test_bad_options_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        cule.make("pong", 1, **kwargs)


def test_unknown_game_and_missing_device():
    with pytest.raises(ValueError, match="no_such_game"):
        cule.make("no_such_game")
    with pytest.raises(ValueError, match="num_envs"):
        cule.make("pong", 0)
    if cule.cuda_device_count() == 0:
        with pytest.raises(RuntimeError, match="device"):
            cule.make("pong", 1, device="cuda")


def test_list_games():
    games = cule.list_games()
    assert len(games) == 104 and "pong" in games and games == sorted(games)


def test_step_async_and_step_wait_give_what_step_gives():
    stepped = cule.make("catch", 4, repeat_action_probability=0.25)
    sent = cule.make("catch", 4, repeat_action_probability=0.25)
    stepped.reset(seed=2)
    sent.reset(seed=2)
    rng = np.random.default_rng(4)
    for _ in range(60):
        actions = rng.integers(stepped.single_action_space.n, size=4)
        a = stepped.step(actions)
        sent.step_async(actions)
        b = sent.step_wait()
        for x, y in zip(a[:4], b[:4]):
            assert np.array_equal(x, y)
    with pytest.raises(ValueError, match="recv"):
        sent.step_wait()


def test_several_games_play_as_their_own_batches():
    pytest.importorskip("ale_py", reason="the games' ROMs come from ale-py")
    games, runs = ["pong", "breakout", "space_invaders"], [(0, 2), (2, 4), (4, 7)]
    options = dict(full_action_space=True, repeat_action_probability=0.25, max_num_frames_per_episode=800)
    together = cule.make(games, 7, **options)
    assert together.core.games == games and together.core.game == "pong+breakout+space_invaders"
    assert [together.core.game_of(i) for i in range(7)] == [0, 0, 1, 1, 2, 2, 2]
    alone = [cule.make(game, end - first, **options) for game, (first, end) in zip(games, runs)]
    together.reset(seed=5)
    for env, (first, _) in zip(alone, runs):
        env.reset(seed=5 + first)  # environment i of a batch has seed + i
    rng = np.random.default_rng(2)
    for step in range(150):
        actions = rng.integers(18, size=7)
        got = together.step(actions)
        for env, (first, end) in zip(alone, runs):
            want = env.step(actions[first:end])
            for name, x, y in zip(("observations", "rewards", "terminated", "truncated"), got, want):
                assert np.array_equal(x[first:end], y), f"step {step}: {name} of envs {first}-{end - 1} differ"
            assert np.array_equal(got[4]["lives"][first:end], want[4]["lives"])


def test_games_with_different_action_sets_need_the_full_action_space():
    pytest.importorskip("ale_py", reason="the games' ROMs come from ale-py")
    with pytest.raises(ValueError, match="full_action_space"):
        cule.make(["pong", "breakout"], 2)
    with pytest.raises(ValueError, match="roms"):
        cule.make(["pong", "breakout"], 1, full_action_space=True)


def test_continuous_actions_map_alike_in_numpy_and_torch():
    from cule.vector import joystick_actions

    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    actions = rng.uniform([0, -np.pi, 0], [1, np.pi, 1], size=(4000, 3)).astype(np.float32)
    actions[:8] = [
        [0.5, 0, 0.5], [1, np.pi / 2, 1], [1, -np.pi, 0], [0, 0, 0],
        [1, np.pi / 4, 0.51], [1, -3 * np.pi / 4, 0], [0.6, 0, 0], [0.6, np.pi, 1],
    ]
    indices, strengths = joystick_actions(actions, 0.5)
    # Centre and on the threshold: NOOP; up+fire: UPFIRE; left: LEFT; nothing: NOOP;
    # up-right+fire: UPRIGHTFIRE; down-left: DOWNLEFT; right: RIGHT; left+fire: LEFTFIRE.
    assert indices[:8].tolist() == [0, 10, 4, 0, 14, 9, 3, 12]
    assert set(indices.tolist()) == set(range(18)), "every joystick action is reached"
    np.testing.assert_array_equal(strengths, actions[:, 0])
    torch_indices, torch_strengths = joystick_actions(torch.from_numpy(actions), 0.5)
    assert torch_indices.dtype == torch.int32 and torch_strengths.dtype == torch.float32
    np.testing.assert_array_equal(torch_indices.numpy(), indices)
    np.testing.assert_array_equal(torch_strengths.numpy(), strengths)


def test_continuous_actions_are_checked():
    env = cule.make("pong", 2, continuous=True)
    assert env.single_action_space.shape == (3,) and len(env.action_set) == 18
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions: .*expected shape \(2, 3\), got \(2,\)"):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="paddle_strength"):
        env.step(np.array([[np.nan, 0, 0], [1, 0, 0]], np.float32))
    with pytest.raises(ValueError, match="continuous_action_threshold"):
        cule.make("pong", 1, continuous=True, continuous_action_threshold=float("nan"))


def test_asynchronous_batches_follow_atari_vector_envs_protocol():
    # One worker: the order of the tasks, and so each environment's share, is fixed.
    env = cule.make("catch", 6, batch_size=2, num_threads=1, max_num_frames_per_episode=80)
    assert (env.num_envs, env.batch_size) == (6, 2)
    assert env.observation_space.shape[0] == 2 and env.action_space.shape == (2,)
    obs, info = env.reset(seed=3)
    assert obs.shape[0] == 2 and info["env_id"].shape == (2,)
    rng = np.random.default_rng(5)
    steps = np.zeros(6, np.int64)
    for _ in range(120):
        ids = info["env_id"]
        assert len(set(ids.tolist())) == 2, "an environment at most once per batch"
        # Views the caller may write into: send() still steps the environments received.
        ids[:] = 0
        env.core.env_ids[:] = 0
        env.send(rng.integers(env.single_action_space.n, size=2))
        obs, rewards, terminated, truncated, info = env.recv()
        assert info["env_id"] is not ids, "a new array for each batch, as AtariVectorEnv's"
        steps[info["env_id"]] += 1
    assert steps.min() >= 20, "every environment had its turns"
    with pytest.raises(ValueError, match="recv: the last batch received was not sent"):
        env.recv()
    env.step_async(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="send: the last batch received was already sent"):
        env.step_async(np.zeros(2, np.int64))
    env.step_wait()
    with pytest.raises(ValueError, match=r"does not match batch_size; expected \(2,\)"):
        env.step(np.zeros(6, np.int64))
    with pytest.raises(ValueError, match="reset_mask: partial resets need batch_size == num_envs"):
        env.reset(options={"reset_mask": np.ones(6, bool)})


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(batch_size=7), "batch_size: 7 must be in 0-6"),
        (dict(batch_size=-1), "batch_size"),
        (dict(batch_size=2, autoreset_mode="Disabled"), "autoreset_mode: Disabled"),
        (dict(batch_size=2, device="cuda"), "batch_size: asynchronous batches .* run on CPU threads"),
        (dict(thread_affinity_offset=-2), "thread_affinity_offset"),
        (dict(thread_affinity_offset=0, device="cuda"), "thread_affinity_offset: pins CPU threads"),
    ],
)
def test_batch_options_it_cannot_run_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        cule.make("catch", 6, **kwargs)


def _threads_on_one_core() -> int:
    """This process's threads that may run on one core only (Linux)."""
    count = 0
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/status") as status:
            for line in status:
                if line.startswith("Cpus_allowed_list:"):
                    allowed = line.split(":")[1].strip()
                    count += "," not in allowed and "-" not in allowed
    return count


def _every_core_open() -> bool:
    """Linux, two cores or more, and this process may run on all of them."""
    cores = os.cpu_count() or 1
    return sys.platform.startswith("linux") and cores >= 2 and os.sched_getaffinity(0) == set(range(cores))


@pytest.mark.skipif(not _every_core_open(), reason="needs Linux with every core of at least two open to this process")
def test_thread_affinity_offset_pins_the_worker_threads():
    before = _threads_on_one_core()
    # The pool's caller is worker 0 and stays where it is: 1 thread pinned.
    together = cule.make("catch", 4, num_threads=2, thread_affinity_offset=1)
    assert _threads_on_one_core() == before + 1
    batched = cule.make("catch", 4, batch_size=2, num_threads=2, thread_affinity_offset=0)
    assert _threads_on_one_core() == before + 3
    unpinned = cule.make("catch", 4, batch_size=2, num_threads=2)
    assert _threads_on_one_core() == before + 3
    for env in (together, batched, unpinned):
        env.reset(seed=0)
        env.step(np.zeros(env.batch_size, np.int64))
