"""Sticky actions and no-op starts in distribution. cule draws them from a
counter-based generator of its own (DESIGN.md), so with them on its runs
cannot equal ALE's draw for draw, and the step-by-step comparisons turn them
off (vector_compare.py). Here they are checked against what they must be:
ALE's sticky actions by their definition, the no-op starts against
AtariVectorEnv's own. Each test is a chi-square test at the 0.001 level, on
fixed seeds (so it passes or fails the same way every run)."""

import numpy as np
import pytest

import cule

# Upper 0.001 points of the chi-square distribution, by degrees of freedom
# (the standard table).
CHI_SQUARE_0_001 = {4: 18.467, 28: 56.892}


def chi_square(observed, expected) -> float:
    observed, expected = np.asarray(observed, float), np.asarray(expected, float)
    return float(((observed - expected) ** 2 / expected).sum())


def test_sticky_actions_keep_the_previous_frames_action_with_their_probability():
    """ALE's repeat_action_probability p: each frame runs the previous
    frame's action instead of the one asked for, with probability p. So in a
    step of 4 frames whose action differs from the last one run, the old
    action runs for the first k frames with probability (1 - p) p^k (k < 4),
    or all 4 (p^4). The project's cartridge moves its paddle 4 pixels a
    frame (RIGHT +, LEFT -): a step's move gives k."""
    p, n, frameskip = 0.25, 64, 4
    env = cule.make("catch", n, frameskip=frameskip, repeat_action_probability=p, noop_max=0,
                    max_num_frames_per_episode=0, num_threads=2)
    assert env.action_set == [0, 3, 4]  # NOOP, RIGHT, LEFT
    direction = np.array([0, 1, -1])  # of each action index
    env.reset(seed=1)

    def paddles():
        return np.array([env.core.ram(i)[3] for i in range(n)], dtype=int)  # catch.asm: paddle = $83

    rng = np.random.default_rng(0)
    before = paddles()
    last_run = np.zeros(n, dtype=int)  # the action run in the last frame (0: not known)
    ended = np.zeros(n, dtype=bool)
    old_frames = []
    for _ in range(300):
        actions = rng.integers(1, 3, size=n)
        _, _, terminated, truncated, _ = env.step(actions)
        after = paddles()
        for i in range(n):
            move = after[i] - before[i]
            # Away from the walls (0 and 144: a step moves 16 pixels at
            # most), in a step that neither ended a game nor started one,
            # the move is 4 pixels a frame. (Chosen by where the step
            # starts, not by where it ends, which depends on k.)
            clear = 16 <= before[i] <= 128 and not (ended[i] or terminated[i])
            full_step = frameskip * 4 * direction[actions[i]]
            if not clear or last_run[i] == 0:
                last_run[i] = actions[i] if clear and move == full_step else 0
            elif actions[i] == last_run[i]:
                assert move == full_step, "the same action again runs in every frame"
            else:
                k = (frameskip - move // (4 * direction[actions[i]])) // 2
                old_frames.append(k)
                if k < frameskip:
                    last_run[i] = actions[i]
            before[i] = after[i]
        ended = terminated | truncated
    counts = np.bincount(old_frames, minlength=frameskip + 1)
    expected = np.array([(1 - p) * p**k for k in range(frameskip)] + [p**frameskip]) * len(old_frames)
    assert len(old_frames) > 3000
    assert chi_square(counts, expected) < CHI_SQUARE_0_001[4], (counts, expected.round(1))


def test_no_op_starts_are_distributed_as_atari_vector_envs():
    """FIRE and 0 to noop_max - 2 no-ops after it (AtariVectorEnv's draw):
    the frame numbers at the reset, over many seeds, against
    AtariVectorEnv's, a two-sample chi-square test over frames 1 to 29."""
    vector_env = pytest.importorskip("ale_py.vector_env", reason="ale-py's AtariVectorEnv is the reference")
    n, resets = 32, 15
    ale = vector_env.AtariVectorEnv("breakout", n, num_threads=2)
    ours = cule.make("breakout", n, num_threads=2)
    frames = {"ale": [], "cule": []}
    for r in range(resets):
        # Seeded once (a seeded reset reloads every ROM, a second each in
        # ale-py), then each reset draws again.
        seed = 0 if r == 0 else None
        frames["ale"].extend(ale.reset(seed=seed)[1]["episode_frame_number"])
        frames["cule"].extend(ours.reset(seed=seed)[1]["episode_frame_number"])
    ale.close()
    ours.close()
    a = np.bincount(frames["ale"], minlength=31)
    c = np.bincount(frames["cule"], minlength=31)
    assert a[0] == c[0] == 0 and a[30:].sum() == c[30:].sum() == 0, "FIRE then at most 28 no-ops"
    a, c = a[1:30], c[1:30]
    # Two samples of the same size: (a - c)^2 / (a + c) summed is chi-square
    # with one degree of freedom fewer than the bins.
    both = a + c
    assert (both > 0).all(), "every bin should be drawn (28 degrees of freedom)"
    statistic = float(((a - c) ** 2 / both).sum())
    assert statistic < CHI_SQUARE_0_001[28], (a, c)
