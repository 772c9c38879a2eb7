"""A batch of Atari environments played by random actions: frames per second
and the episodes finished. Needs ale-py for the game's ROM (or pass a path).

    python examples/random_agent.py --game pong --envs 16 --steps 500
"""

import argparse
import time

import numpy as np

import cule


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="pong", help="an ale-py id or a ROM path")
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--steps", type=int, default=500)
    args = parser.parse_args()

    env = cule.make(args.game, args.envs, repeat_action_probability=0.25)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    returns, episodes = np.zeros(args.envs), []
    start = time.perf_counter()
    for _ in range(args.steps):
        _, reward, terminated, truncated, info = env.step(rng.integers(env.single_action_space.n, size=args.envs))
        returns += reward
        for i in np.flatnonzero(terminated | truncated):
            episodes.append(returns[i])
            returns[i] = 0
    seconds = time.perf_counter() - start
    frames = args.steps * args.envs * 4
    print(f"{args.game}: {args.envs} envs on {env.core.num_threads} threads, {frames} frames in {seconds:.2f} s: "
          f"{frames / seconds:,.0f} frames/s ({frames / seconds * 3600 / 1e6:,.1f} M frames/hour)")
    if episodes:
        print(f"{len(episodes)} episodes ended, mean clipped return {np.mean(episodes):.1f}")


if __name__ == "__main__":
    main()
