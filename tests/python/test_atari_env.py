"""gymnasium.make("cule/<Game>-v5") (cule.env.AtariEnv) against ale-py's
gymnasium.make("ALE/<Game>-v5") (ale_py.env.AtariEnv): the same arguments
and defaults, the same spaces, and, with sticky actions off (each library
draws its own), the same observations, rewards, terminations, truncations
and info, step by step, through a game's end and the unseeded reset after
it, also under Gymnasium's AtariPreprocessing; render(); Gymnasium's own
API checks; the arguments it refuses."""

import inspect
import sys
import types

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cule.env import AtariEnv

ale_py = pytest.importorskip("ale_py", reason="ale-py's AtariEnv is the reference")
from ale_py.env import AtariEnv as AleAtariEnv  # noqa: E402


def test_arguments_and_defaults_are_ale_pys():
    ours = inspect.signature(AtariEnv.__init__).parameters
    theirs = inspect.signature(AleAtariEnv.__init__).parameters
    assert list(ours) == list(theirs)
    for name, parameter in theirs.items():
        assert ours[name].default == parameter.default, name


def _same_step(ours, theirs, where):
    for name, a, b in zip(("obs", "reward", "terminated", "truncated"), ours[:4], theirs[:4]):
        np.testing.assert_array_equal(a, b, err_msg=f"{name} at {where}")
    for key in ("lives", "episode_frame_number", "frame_number"):
        assert ours[4][key] == theirs[4][key], f"info[{key!r}] at {where}"


@pytest.mark.parametrize(
    "game, options",
    [
        ("Breakout", dict(max_num_frames_per_episode=2000)),
        ("Breakout", dict(obs_type="grayscale", frameskip=3)),
        ("Breakout", dict(obs_type="ram", full_action_space=True)),
        ("AirRaid", dict(max_num_frames_per_episode=600)),  # PAL: a 250-line screen
        ("Pong", dict(continuous=True, max_num_frames_per_episode=400)),
    ],
)
def test_plays_as_ale_pys_atari_env(game, options):
    options = dict(repeat_action_probability=0.0, **options)
    ours = gymnasium.make(f"cule/{game}-v5", **options)
    theirs = gymnasium.make(f"ALE/{game}-v5", **options)
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    assert ours.unwrapped.get_action_meanings() == theirs.unwrapped.get_action_meanings()
    got, got_info = ours.reset(seed=11)
    want, want_info = theirs.reset(seed=11)
    np.testing.assert_array_equal(got, want)
    assert tuple(got_info["seeds"]) == tuple(int(s) for s in want_info["seeds"])
    theirs.action_space.seed(3)
    games, step = 0, 0
    while games < 2 and step < 1500:
        action = theirs.action_space.sample()
        a, b = ours.step(action), theirs.step(action)
        _same_step(a, b, f"game {games}, step {step}")
        step += 1
        if b[2] or b[3]:
            games += 1
            # Unseeded: ALE's reset of the game, its RNGs going on.
            np.testing.assert_array_equal(ours.reset()[0], theirs.reset()[0], err_msg=f"reset after game {games}")
    assert games == 2, "both games should end within the run"


def test_gymnasiums_checks_pass():
    check_env(gymnasium.make("cule/Breakout-v5").unwrapped, skip_render_check=True)
    check_env(gymnasium.make("cule/Pong-v5", obs_type="ram", render_mode="rgb_array").unwrapped)


def test_render_gives_ales_rgb_screen():
    options = dict(obs_type="grayscale", render_mode="rgb_array", repeat_action_probability=0.0)
    ours, theirs = AtariEnv("air_raid", **options), AleAtariEnv("air_raid", **options)
    ours.reset(seed=1)
    theirs.reset(seed=1)
    for action in (1, 2, 2, 3, 4, 5):
        ours.step(action)
        theirs.step(action)
        np.testing.assert_array_equal(ours.render(), theirs.render())
    # Without render_mode, as ale-py: an error.
    for env in (AtariEnv("breakout"), AleAtariEnv("breakout")):
        with pytest.raises(gymnasium.error.Error, match="render"):
            env.render()


def _stub_cv2(monkeypatch):
    """AtariPreprocessing's one use of OpenCV, resize, as a stub (OpenCV is
    not installed here): both libraries' frames go through the same one."""
    cv2 = types.ModuleType("cv2")
    cv2.INTER_AREA = 3

    def resize(image, size, interpolation=None):
        width, height = size
        rows = np.arange(height) * image.shape[0] // height
        columns = np.arange(width) * image.shape[1] // width
        return image[rows][:, columns]

    cv2.resize = resize
    monkeypatch.setitem(sys.modules, "cv2", cv2)


@pytest.mark.parametrize("grayscale", [True, False])
def test_atari_preprocessing_wraps_it_as_ale_pys(monkeypatch, grayscale):
    if "cv2" not in sys.modules:
        _stub_cv2(monkeypatch)
    envs = [
        gymnasium.wrappers.AtariPreprocessing(
            gymnasium.make(f"{namespace}/Breakout-v5", frameskip=1, repeat_action_probability=0.0),
            noop_max=10, terminal_on_life_loss=True, grayscale_obs=grayscale,
        )
        for namespace in ("cule", "ALE")
    ]
    ours, theirs = envs
    np.testing.assert_array_equal(ours.reset(seed=2)[0], theirs.reset(seed=2)[0])
    rng = np.random.default_rng(4)
    for step in range(150):
        action = int(rng.integers(4))
        a, b = ours.step(action), theirs.step(action)
        for name, x, y in zip(("obs", "reward", "terminated", "truncated"), a[:4], b[:4]):
            np.testing.assert_array_equal(x, y, err_msg=f"{name} at step {step}")
        if b[2] or b[3]:
            np.testing.assert_array_equal(ours.reset()[0], theirs.reset()[0])


def test_unseeded_games_start_from_fresh_entropy():
    """As AtariEnv: without a seed the first reset seeds from fresh entropy,
    so two runs of the same actions differ (their sticky actions do)."""
    runs = []
    for _ in range(2):
        env = AtariEnv("breakout", obs_type="ram")  # sticky actions 0.25
        env.reset()
        runs.append([env.step(action)[0] for action in [2, 3] * 40])
    assert any(not np.array_equal(x, y) for x, y in zip(*runs))


@pytest.mark.parametrize(
    "options, named",
    [
        (dict(obs_type="pixels"), "obs_type"),
        (dict(frameskip=(2, 5)), "frameskip"),
        (dict(render_mode="human"), "render_mode"),
        (dict(game="no_such_game"), "game"),
        (dict(mode=99), "mode"),
        (dict(sound_obs=True), "sound_obs"),
    ],
)
def test_arguments_it_cannot_take_are_named(options, named):
    with pytest.raises(ValueError, match=named):
        AtariEnv(**{"game": "breakout", **options})


def test_actions_of_the_wrong_shape_are_named():
    env = AtariEnv("pong", continuous=True)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(np.zeros(2, np.float32))
    env = AtariEnv("pong")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action: expected one action index"):
        env.step(np.array([2]))


def test_a_closed_environment_says_so():
    env = AtariEnv("pong", render_mode="rgb_array")
    env.reset(seed=0)
    env.close()
    for call in (lambda: env.step(0), env.reset, env.render, env.ale.lives):
        with pytest.raises(ValueError, match="closed"):
            call()
