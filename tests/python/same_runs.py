"""Two cule batches that must run alike: the same random actions, and after
every step the same observations, rewards, flags, lives, frame numbers,
final observations, screens and RAM."""

from __future__ import annotations

import numpy as np


def assert_same_runs(got_env, want_env, steps: int, seed: int = 0) -> int:
    """Steps both `steps` times; returns how many episodes ended (autoresets
    of SameStep batches)."""
    num_envs = want_env.num_envs
    rng = np.random.default_rng(seed)
    ended = 0
    for step in range(steps):
        actions = rng.integers(want_env.single_action_space.n, size=num_envs)
        got = got_env.step(actions)
        want = want_env.step(actions)
        for name, x, y in zip(("observations", "rewards", "terminated", "truncated"), got, want):
            assert np.array_equal(x, y), f"step {step}: {name} differ"
        for key in ("lives", "episode_frame_number", "frame_number"):
            assert np.array_equal(got[4][key], want[4][key]), f"step {step}: {key} differ"
        assert ("final_obs" in got[4]) == ("final_obs" in want[4]), f"step {step}: episode ends differ"
        if "final_obs" in want[4]:
            done = want[4]["_final_obs"]
            ended += int(done.sum())
            assert np.array_equal(got[4]["_final_obs"], done), f"step {step}: episode ends differ"
            assert np.array_equal(got[4]["final_obs"][done], want[4]["final_obs"][done]), f"step {step}: final_obs differ"
        for i in range(num_envs):
            assert np.array_equal(got_env.core.screen(i), want_env.core.screen(i)), f"step {step} env {i}: screens differ"
            assert np.array_equal(got_env.core.ram(i), want_env.core.ram(i)), f"step {step} env {i}: RAM differ"
    return ended
