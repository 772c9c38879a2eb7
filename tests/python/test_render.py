"""render_mode="rgb_array": each environment's last frame in RGB, against
ale-py's AtariEnv (obs_type="rgb": ALE's getScreenRGB) step by step, with
the NTSC and the PAL palette; Gymnasium's vector rendering contract; and
the options it refuses."""

import gymnasium
import numpy as np
import pytest

import cule

ale_py = pytest.importorskip("ale_py", reason="ale-py's AtariEnv is the reference")
from ale_py.env import AtariEnv  # noqa: E402

# AtariEnv's step: frame skip 4, no stickiness (each library draws its own),
# no no-op starts, FIRE resets, clipping or stacking.
AS_ATARI_ENV = dict(
    frameskip=4, repeat_action_probability=0.0, noop_max=0, use_fire_reset=False, reward_clipping=False,
    maxpool=False, stack_num=1, obs_type="rgb",
)


@pytest.mark.parametrize("game", ["breakout", "air_raid"])  # an NTSC game and a PAL one
def test_frames_are_ales_rgb_screens(game):
    ales = [AtariEnv(game, obs_type="rgb", frameskip=4, repeat_action_probability=0.0) for _ in range(2)]
    resets = [ale.reset(seed=seed) for ale, seed in zip(ales, (3, 4))]
    # AtariEnv seeds ALE with a number drawn from the seed (info["seeds"]).
    ale_seeds = [int(np.uint32(info["seeds"][1])) for _, info in resets]
    height = resets[0][0].shape[0]
    env = cule.make(game, 2, render_mode="rgb_array", img_height=height, img_width=160, num_threads=1, **AS_ATARI_ENV)
    env.reset(seed=np.array(ale_seeds))
    rng = np.random.default_rng(0)
    wants = [obs for obs, _ in resets]
    for step in range(120):
        frames = env.render()
        assert isinstance(frames, tuple) and len(frames) == 2
        for i, (frame, want) in enumerate(zip(frames, wants)):
            assert frame.shape == (height, 160, 3) and frame.dtype == np.uint8
            np.testing.assert_array_equal(frame, want, err_msg=f"{game} environment {i}, step {step}")
        actions = rng.integers(env.single_action_space.n, size=2)
        env.step(actions)
        wants = [ale.step(int(a))[0] for ale, a in zip(ales, actions)]
    assert not np.array_equal(wants[0], wants[1]), "the two environments should show different frames"


def test_render_mode_is_in_the_metadata_and_none_renders_nothing():
    env = cule.make("catch", 2, render_mode="rgb_array", frameskip=5)
    assert env.render_mode == "rgb_array"
    assert "rgb_array" in env.metadata["render_modes"]
    # Videos in real time: an NTSC TV shows 60 frames a second, a PAL one 50.
    assert env.metadata["render_fps"] == 60 // 5
    assert cule.make("air_raid", 1, render_mode="rgb_array").metadata["render_fps"] == 50 // 4
    plain = cule.make("catch", 2)
    assert plain.render_mode is None
    assert plain.render() is None


def test_gymnasiums_window_wrapper_takes_it():
    # HumanRendering checks the render mode and the metadata's render_fps
    # when built (its window, with pygame, opens at the first render).
    env = cule.make("catch", 2, render_mode="rgb_array")
    assert gymnasium.wrappers.vector.HumanRendering(env).render_mode == "human"
    with pytest.raises(ValueError, match="render_mode"):
        gymnasium.wrappers.vector.HumanRendering(cule.make("catch", 2))


@pytest.mark.parametrize(
    "options, named",
    [
        (dict(render_mode="human"), "render_mode"),
        (dict(render_mode="rgb"), "render_mode"),
        (dict(render_mode="rgb_array", batch_size=2), "render_mode"),
    ],
)
def test_render_modes_it_cannot_give_are_errors(options, named):
    with pytest.raises(ValueError, match=named):
        cule.make("catch", 4, **options)
