"""Every game: drawing only the frames a step observes (the default) gives
exactly what drawing every frame, as ALE does, gives.

A step runs its skipped frames undrawn and runs again, drawing all, when that
could show (a frame that ends partial greys out from the old buffer; a drawn
frame may end short of what an undrawn one reached). Sticky actions, an odd
frame skip, truncations and same-step resets put those cases in the run."""

import numpy as np
import pytest

pytest.importorskip("ale_py", reason="the games' ROMs come from ale-py")

import cule  # noqa: E402

OPTIONS = dict(
    frameskip=5,
    maxpool=False,
    repeat_action_probability=0.25,
    max_num_frames_per_episode=1500,
    autoreset_mode="SameStep",
)
NUM_ENVS, STEPS = 3, 150


@pytest.mark.parametrize("game", cule.list_games())
def test_skipped_drawing_never_shows(game):
    observed_only = cule.make(game, NUM_ENVS, num_threads=1, **OPTIONS)
    all_drawn = cule.make(game, NUM_ENVS, num_threads=1, draw_all_frames=True, **OPTIONS)
    observed_only.reset(seed=1)
    all_drawn.reset(seed=1)
    rng = np.random.default_rng(0)
    for step in range(STEPS):
        actions = rng.integers(observed_only.single_action_space.n, size=NUM_ENVS)
        got = observed_only.step(actions)
        want = all_drawn.step(actions)
        for name, x, y in zip(("observations", "rewards", "terminated", "truncated"), got, want):
            assert np.array_equal(x, y), f"step {step}: {name} differ"
        assert np.array_equal(got[4]["lives"], want[4]["lives"]), f"step {step}: lives differ"
        if "final_obs" in want[4]:
            done = want[4]["_final_obs"]
            assert np.array_equal(got[4]["final_obs"][done], want[4]["final_obs"][done]), f"step {step}: final_obs differ"
        for i in range(NUM_ENVS):
            assert np.array_equal(observed_only.core.screen(i), all_drawn.core.screen(i)), f"step {step} env {i}: screens differ"
            assert np.array_equal(observed_only.core.ram(i), all_drawn.core.ram(i)), f"step {step} env {i}: RAM differ"
    observed_only.close()
    all_drawn.close()
