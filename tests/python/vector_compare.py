"""cule.make against ale-py's AtariVectorEnv with the same options and actions.

Both batches are reset with the same seeds and play the same random actions;
after every step the observations, rewards, terminations, truncations, lives
and episode frame numbers must be equal. Sticky actions and no-op starts draw
from each library's own generator, so the comparisons turn them off
(repeat_action_probability=0, noop_max=0); everything else is compared as is.
"""

from __future__ import annotations

import numpy as np

import cule

EXACT = dict(repeat_action_probability=0.0, noop_max=0)


def compare(game: str, steps: int, num_envs: int = 2, seed: int = 0, **options) -> tuple[str | None, int]:
    """(None, episodes ended) when every step agrees, else (the first difference, ...)."""
    from ale_py.vector_env import AtariVectorEnv

    options = {**EXACT, **options}
    ale = AtariVectorEnv(game, num_envs, num_threads=1, **options)
    ours = cule.make(game, num_envs, num_threads=1, **options)
    try:
        want, want_info = ale.reset(seed=seed)
        got, got_info = ours.reset(seed=seed)
        if not np.array_equal(want, got):
            return f"{game}: reset observations differ ({np.mean(want != got):.3f} of bytes)", 0
        rng = np.random.default_rng(seed)
        ends = 0
        for step in range(steps):
            if options.get("continuous"):  # rows of (radius, angle, fire) within the Box
                space = ale.single_action_space
                actions = rng.uniform(space.low, space.high, size=(num_envs, 3)).astype(np.float32)
            else:
                actions = rng.integers(ale.single_action_space.n, size=num_envs)
            a = ale.step(actions)
            c = ours.step(actions)
            ends += int(np.sum(a[2] | a[3]))
            for name, x, y in (
                ("observations", a[0], c[0]),
                ("rewards", a[1].astype(np.float32), c[1]),
                ("terminated", a[2], c[2]),
                ("truncated", a[3], c[3]),
                ("lives", a[4]["lives"], c[4]["lives"]),
                ("episode_frame_number", a[4]["episode_frame_number"], c[4]["episode_frame_number"]),
                ("frame_number", a[4]["frame_number"], c[4]["frame_number"]),
            ):
                if not np.array_equal(x, y):
                    detail = f"ALE {x.tolist()} cule {y.tolist()}" if x.ndim == 1 else f"{np.mean(x != y):.3f} of bytes"
                    return f"{game} step {step}: {name} differ: {detail}", ends
            if "final_obs" in a[4]:
                done = a[2] | a[3]
                if not np.array_equal(a[4]["final_obs"][done], c[4]["final_obs"][done]):
                    return f"{game} step {step}: final_obs differ", ends
        return None, ends
    finally:
        ale.close()
        ours.close()
