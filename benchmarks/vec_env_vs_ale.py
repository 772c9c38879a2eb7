"""Frames per second of cule's CPU VecEnv against ale-py's AtariVectorEnv
(and EnvPool when it is installed), in the same run, with the same game,
options and thread count: AtariVectorEnv's defaults, which are the usual
Atari v5 preprocessing (frame skip 4, 84x84 grayscale, max-pool, stack 4),
sticky actions 0.25, random actions. Frames are emulated frames (4 a step).

    python benchmarks/vec_env_vs_ale.py --games pong breakout --envs 1 2 4 8 16 --threads 2 --plot benchmarks/vec_env_fps.png

--batch-size B (below num_envs) measures asynchronous batches instead: each
step gives actions to the B environments of the last batch and returns the
next B to finish, in every library.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import cule

OPTIONS = dict(frameskip=4, repeat_action_probability=0.25, stack_num=4, img_height=84, img_width=84)


def frames_per_second(env, rows: int, steps: int, actions_n: int) -> float:
    """Emulated frames per second over `steps` steps of `rows` environments
    each (num_envs, or the batch size of asynchronous batches)."""
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = rng.integers(actions_n, size=(steps, rows))
    for a in actions[: max(1, steps // 10)]:  # warm-up
        env.step(a)
    start = time.perf_counter()
    for a in actions:
        env.step(a)
    return steps * rows * OPTIONS["frameskip"] / (time.perf_counter() - start)


class EnvPoolAsVectorEnv:
    """EnvPool with the Gymnasium vector API the measurement uses: EnvPool
    takes its seed when made, and its action_space is one environment's."""

    def __init__(self, env):
        self.env = env
        self.single_action_space = env.action_space

    def reset(self, seed=None):
        return self.env.reset()

    def step(self, actions):
        return self.env.step(actions)

    def close(self):
        self.env.close()


def peers(game: str, num_envs: int, threads: int, batch_size: int):
    from ale_py.vector_env import AtariVectorEnv

    yield "ale-py", AtariVectorEnv(game, num_envs, batch_size=batch_size, num_threads=threads, **OPTIONS)
    if batch_size:
        # EnvPool 0.8.4 (with NumPy 2) returns one environment in every row of
        # an asynchronous batch and then emulates garbage ("Illegal
        # Instruction!"), so it is left out there.
        return
    try:
        import envpool
    except ImportError:
        return
    name = "".join(part.capitalize() for part in game.split("_")) + "-v5"
    yield "envpool", EnvPoolAsVectorEnv(envpool.make_gymnasium(
        name, num_envs=num_envs, num_threads=threads, seed=0,
        repeat_action_probability=OPTIONS["repeat_action_probability"], stack_num=4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=["pong", "breakout"])
    parser.add_argument("--envs", nargs="+", type=int, default=[1, 2, 4, 8, 16])
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--steps", type=int, default=300, help="steps per measurement")
    parser.add_argument("--repeats", type=int, default=1, help="runs per measurement (the best counts)")
    parser.add_argument("--batch-size", type=int, default=0,
                        help="asynchronous batches of this many environments (0: synchronous, all of them)")
    parser.add_argument("--plot", help="write a PNG of frames/s against num_envs here")
    args = parser.parse_args()

    batches = f"asynchronous batches of {args.batch_size}" if args.batch_size else "synchronous batches"
    print(f"threads: {args.threads} (both libraries); {batches}; frames = emulated frames, 4 per step; "
          f"best of {args.repeats}")
    print("| game | envs | cule frames/s | cule frames/h | ale-py frames/s | cule / ale-py | envpool frames/s "
          "| cule / envpool |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    curves: dict[tuple[str, str], list[float]] = {}
    ratios, envpool_ratios = [], []
    for game in args.games:
        for n in args.envs:
            # The best of --repeats runs each, the libraries taking turns, so
            # that a noisy machine's slow spells fall on both alike.
            ours, theirs = 0.0, {}
            batch_size = args.batch_size if 0 < args.batch_size < n else 0
            rows = batch_size or n
            for _ in range(args.repeats):
                env = cule.make(game, n, batch_size=batch_size, num_threads=args.threads, **OPTIONS)
                ours = max(ours, frames_per_second(env, rows, args.steps, env.single_action_space.n))
                env.close()
                for name, peer in peers(game, n, args.threads, batch_size):
                    fps = frames_per_second(peer, rows, args.steps, peer.single_action_space.n)
                    theirs[name] = max(theirs.get(name, 0.0), fps)
                    peer.close()
            ratio = ours / theirs["ale-py"]
            ratios.append(ratio)
            for name, fps in [("cule", ours), *theirs.items()]:
                curves.setdefault((game, name), []).append(fps)
            envpool, envpool_ratio = "left out" if batch_size else "not installed", "-"
            if "envpool" in theirs:
                envpool_ratios.append(ours / theirs["envpool"])
                envpool, envpool_ratio = f"{theirs['envpool']:.0f}", f"{envpool_ratios[-1]:.2f}"
            print(f"| {game} | {n} | {ours:.0f} | {ours * 3600 / 1e6:.1f} M | {theirs['ale-py']:.0f} | {ratio:.2f} "
                  f"| {envpool} | {envpool_ratio} |", flush=True)
    print(f"geometric mean cule / ale-py: {np.exp(np.mean(np.log(ratios))):.2f}")
    if envpool_ratios:
        print(f"geometric mean cule / envpool: {np.exp(np.mean(np.log(envpool_ratios))):.2f}")

    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 4.5))
        for (game, name), fps in curves.items():
            ax.plot(args.envs, fps, marker="o", linestyle="-" if name == "cule" else "--", label=f"{name} {game}")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("num_envs")
        ax.set_ylabel("frames / second")
        ax.set_title(f"CPU VecEnv, v5 preprocessing, {args.threads} threads")
        ax.grid(True, alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)
        print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
