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


def _play_async(env, rounds: int, seed: int, action_table: np.ndarray, continuous: bool) -> list[list[tuple]]:
    """Each environment's results, in order, over `rounds` asynchronous batches:
    environment e's k-th step takes action_table[e, k] (the same in both
    libraries, whichever batches their threads made)."""
    runs: list[list[tuple]] = [[] for _ in range(env.num_envs)]
    obs, info = env.reset(seed=seed)
    rewards = terminated = truncated = np.zeros(len(obs))
    for _ in range(rounds):
        ids = info["env_id"]
        for k, e in enumerate(ids.tolist()):
            ended = bool(terminated[k] or truncated[k])
            final = info["final_obs"][k].copy() if ended and "final_obs" in info else None
            runs[e].append(
                (
                    obs[k].copy(),
                    float(rewards[k]),
                    bool(terminated[k]),
                    bool(truncated[k]),
                    int(info["lives"][k]),
                    int(info["episode_frame_number"][k]),
                    int(info["frame_number"][k]),
                    final,
                )
            )
        actions = np.stack([action_table[e, len(runs[e]) - 1] for e in ids.tolist()])
        obs, rewards, terminated, truncated, info = env.step(actions if continuous else actions.astype(np.int64))
    return runs


def compare_async(game: str, rounds: int, num_envs: int, batch_size: int, seed: int = 0, **options) -> tuple[str | None, int]:
    """cule.make against AtariVectorEnv with asynchronous batches: (None, the
    results compared, all environments together) when each environment's
    results agree as far as both libraries ran it, else (the first
    difference, ...). AtariVectorEnv's threads may leave an environment
    behind for most of a run, so the count is the measure of the check."""
    from ale_py.vector_env import AtariVectorEnv

    options = {**EXACT, **options}
    made = dict(batch_size=batch_size, num_threads=2, **options)
    continuous = bool(options.get("continuous"))
    ale = AtariVectorEnv(game, num_envs, **made)
    ours = cule.make(game, num_envs, **made)
    try:
        rng = np.random.default_rng(seed)
        if continuous:
            space = ale.single_action_space
            table = rng.uniform(space.low, space.high, size=(num_envs, rounds + 1, 3)).astype(np.float32)
        else:
            table = rng.integers(ale.single_action_space.n, size=(num_envs, rounds + 1))
        want = _play_async(ale, rounds, seed, table, continuous)
        got = _play_async(ours, rounds, seed, table, continuous)
    finally:
        ale.close()
        ours.close()
    names = ("observation", "reward", "terminated", "truncated", "lives", "episode_frame_number", "frame_number", "final_obs")
    compared = sum(min(len(w), len(g)) for w, g in zip(want, got))
    for e, (w, g) in enumerate(zip(want, got)):
        for k, (a, c) in enumerate(zip(w, g)):
            for name, x, y in zip(names, a, c):
                if (x is None) != (y is None) or (x is not None and not np.array_equal(x, y)):
                    return f"{game} environment {e}, its step {k}: {name} differ", compared
    return None, compared
