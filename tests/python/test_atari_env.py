"""gymnasium.make("cule/<Game>-v5") (cule.env.AtariEnv) against ale-py's
gymnasium.make("ALE/<Game>-v5") (ale_py.env.AtariEnv): the same spaces, and,
with sticky actions off (each library draws its own), the same observations,
rewards, terminations, truncations and info, step by step, through a game's
end and the unseeded reset after it; Gymnasium's own API checks; the
arguments it refuses."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cule
from cule.env import AtariEnv

pytest.importorskip("ale_py", reason="ale-py's AtariEnv is the reference")


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


def test_render_gives_the_rgb_screen():
    env = AtariEnv("breakout", obs_type="grayscale", render_mode="rgb_array", repeat_action_probability=0.0)
    rgb = AtariEnv("breakout", repeat_action_probability=0.0)
    env.reset(seed=1)
    rgb.reset(seed=1)
    for action in (1, 2, 2, 3):
        env.step(action)
        frame = rgb.step(action)[0]
    np.testing.assert_array_equal(env.render(), frame)
    assert AtariEnv("breakout").render() is None


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
    ],
)
def test_arguments_it_cannot_take_are_named(options, named):
    with pytest.raises(ValueError, match=named):
        AtariEnv(**{"game": "breakout", **options})


def test_a_continuous_action_of_the_wrong_shape_is_named():
    env = AtariEnv("pong", continuous=True)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(np.zeros(2, np.float32))
    assert cule.env.ACTION_NAMES[env.unwrapped._env.action_set[1]] == "FIRE"
