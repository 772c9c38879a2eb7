"""cule-bench: frames per second and per hour of cule's batched environments,
on CPU threads or a GPU, with the peers measured in the same run.

    cule-bench --game pong --device cuda --envs 1024,4096,16384,65536
    cule-bench --game pong breakout --envs 1 2 4 8 16 --threads 2 --plot fps.png
    python -m cule.bench ...                  # the same, from a source tree

Every library plays the same games with the same options: AtariVectorEnv's
defaults (the usual Atari v5 preprocessing: frame skip 4, 84x84 grayscale,
max-pool of the last two frames, a stack of 4) with sticky actions 0.25, and
random actions. Frames are emulated frames, 4 a step; a measurement is the
best of --repeats runs, the libraries taking turns, so that a noisy machine's
slow spells fall on all alike.

The peers are ale-py's AtariVectorEnv and EnvPool (where installed), on
--threads CPU threads as cule's CPU backend. With --device cuda they run
only when named (--peers ale-py envpool), on the machine's cores: their
figure is then the CPU's, in the same run. A peer that is not installed or
lacks the game (the project's cartridges, ROM files) gets "n/a". On a GPU
the actions are int32 CUDA tensors drawn before the timing (PyTorch, where
installed), so that a step copies nothing from the host, and the timing
waits for the device.

--batch-size B (below num_envs) measures asynchronous batches (CPU only):
each step gives actions to the B environments of the last batch and returns
the next B to finish, in every library. EnvPool is left out there: 0.8.4
with NumPy 2 returns one environment in every row of such a batch, then
emulates garbage ("Illegal Instruction!").
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

import cule
from cule.vector import env_name, game_id

#: The options every library gets: AtariVectorEnv's defaults, sticky actions.
OPTIONS = dict(frameskip=4, repeat_action_probability=0.25, stack_num=4, img_height=84, img_width=84)
PEERS = ("ale-py", "envpool")


def env_counts(text: str) -> list[int]:
    """'1,64,1024' (or '16') as a list of positive counts."""
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"expected positive counts such as 1,64,1024; got {text!r}")
    return counts


def _random_actions(env, steps: int, rows: int):
    """Each step's actions for `rows` environments: on a GPU int32 CUDA
    tensors where PyTorch is installed (no host copy in the step), else
    NumPy arrays."""
    actions = np.random.default_rng(0).integers(env.single_action_space.n, size=(steps, rows), dtype=np.int32)
    if getattr(env, "device", "cpu").startswith("cuda"):
        try:
            import torch
        except ImportError:
            return list(actions)
        return list(torch.from_numpy(actions).to(env.device))
    return list(actions)


def _wait(env) -> None:
    """Waits for the queued steps of a cule environment on a GPU."""
    if getattr(env, "device", "cpu").startswith("cuda"):
        env.core.synchronize()


def frames_per_second(env, rows: int, steps: int) -> float:
    """Emulated frames per second over `steps` steps of `rows` environments
    each (num_envs, or the batch size of asynchronous batches), after a tenth
    as many steps of warm-up."""
    env.reset(seed=0)
    warm_up = max(1, steps // 10)
    actions = _random_actions(env, warm_up + steps, rows)
    for a in actions[:warm_up]:
        env.step(a)
    _wait(env)
    start = time.perf_counter()
    for a in actions[warm_up:]:
        env.step(a)
    _wait(env)
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


def make_peer(name: str, game: str, num_envs: int, threads: int, batch_size: int):
    """The peer `name`, or None where it is not installed, lacks the game
    (the project's own cartridges) or, for EnvPool, with asynchronous
    batches (see the module's comment)."""
    try:
        from ale_py import roms
        from ale_py.vector_env import AtariVectorEnv
    except ImportError:
        return None
    if game not in roms.get_all_rom_ids():
        return None
    if name == "ale-py":
        return AtariVectorEnv(game, num_envs, batch_size=batch_size, num_threads=threads, **OPTIONS)
    if batch_size:
        return None
    try:
        import envpool
    except ImportError:
        return None
    task = env_name(game) + "-v5"  # EnvPool names its tasks as Gymnasium's ALE ids
    return EnvPoolAsVectorEnv(envpool.make_gymnasium(
        task, num_envs=num_envs, num_threads=threads, seed=0,
        repeat_action_probability=OPTIONS["repeat_action_probability"], stack_num=OPTIONS["stack_num"]))


def _geometric_mean(values: list[float]) -> float:
    return float(np.exp(np.mean(np.log(values))))


def _plot(path: str, envs: list[int], curves: dict, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for (game, name), fps in curves.items():
        ax.plot(envs, fps, marker="o", linestyle="-" if name == "cule" else "--", label=f"{name} {game}")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("num_envs")
    ax.set_ylabel("frames / second")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="cule-bench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", "--games", dest="games", nargs="+", default=["pong", "breakout"],
                        help="games: ale-py ids or names ('pong', 'SpaceInvaders'), or 'catch', the "
                             "project's cartridge (no peer has it)")
    parser.add_argument("--device", default="cpu", help="cpu, cuda or cuda:N")
    parser.add_argument("--envs", nargs="+", type=env_counts,
                        help="numbers of environments, comma- or space-separated "
                             "(default: 1 2 4 8 16 on the CPU, 1024 4096 16384 65536 on a GPU)")
    parser.add_argument("--threads", type=int, default=os.cpu_count(),
                        help="CPU threads of cule's CPU backend and of the peers (default: every core)")
    parser.add_argument("--steps", type=int,
                        help="steps per measurement (default: 300 on the CPU, 30 on a GPU)")
    parser.add_argument("--repeats", type=int, default=1, help="runs per measurement (the best counts)")
    parser.add_argument("--batch-size", type=int, default=0,
                        help="asynchronous batches of this many environments (0: synchronous, all of them)")
    parser.add_argument("--peers", nargs="+", choices=[*PEERS, "none"],
                        help="peers to measure in the same run (default: both on the CPU, none on a GPU)")
    parser.add_argument("--plot", help="write a PNG of frames/s against num_envs here")
    args = parser.parse_args(argv)
    # Names as ids: a Gymnasium name would switch cule.make to the v5 preset.
    args.games = [game_id(game) if not os.path.exists(game) else game for game in args.games]
    on_gpu = args.device.startswith("cuda")
    args.envs = [n for counts in args.envs for n in counts] if args.envs else (
        [1024, 4096, 16384, 65536] if on_gpu else [1, 2, 4, 8, 16])
    args.steps = args.steps if args.steps is not None else (30 if on_gpu else 300)
    if args.peers is None:
        args.peers = [] if on_gpu else list(PEERS)
    args.peers = [name for name in args.peers if name != "none"]
    for name, value in [("--threads", args.threads), ("--steps", args.steps), ("--repeats", args.repeats)]:
        if value < 1:
            parser.error(f"{name}: expected a positive count, got {value}")
    if args.batch_size < 0:
        parser.error(f"--batch-size: expected 0 (synchronous) or a positive count, got {args.batch_size}")
    if on_gpu and args.batch_size:
        parser.error("--batch-size: asynchronous batches run on CPU threads; leave it 0 with --device cuda")
    return args


def run(args: argparse.Namespace) -> None:
    batches = f"asynchronous batches of {args.batch_size}" if args.batch_size else "synchronous batches"
    threads = f"{args.threads} thread" + ("s" if args.threads != 1 else "")
    where = args.device + ("" if args.device.startswith("cuda") else f", {threads}")
    peers = f"; peers ({', '.join(args.peers)}) on {threads}" if args.peers else ""
    print(f"cule on {where}{peers}; {batches}; frames = emulated frames, "
          f"{OPTIONS['frameskip']} per step; {args.steps} steps, best of {args.repeats}")
    header = "| game | envs | cule frames/s | cule frames/h |"
    rule = "| --- | ---: | ---: | ---: |"
    for name in args.peers:
        header += f" {name} frames/s | cule / {name} |"
        rule += " ---: | ---: |"
    print(header)
    print(rule, flush=True)
    curves: dict[tuple[str, str], list[float]] = {}
    ratios: dict[str, list[float]] = {name: [] for name in args.peers}
    for game in args.games:
        for n in args.envs:
            batch_size = args.batch_size if 0 < args.batch_size < n else 0
            rows = batch_size or n
            ours, theirs = 0.0, {}
            for _ in range(args.repeats):
                env = cule.make(game, n, device=args.device, batch_size=batch_size,
                                num_threads=args.threads, **OPTIONS)
                ours = max(ours, frames_per_second(env, rows, args.steps))
                env.close()
                for name in args.peers:
                    peer = make_peer(name, game, n, args.threads, batch_size)
                    if peer is not None:
                        theirs[name] = max(theirs.get(name, 0.0), frames_per_second(peer, rows, args.steps))
                        peer.close()
            row = f"| {game} | {n} | {ours:.0f} | {ours * 3600 / 1e6:.1f} M |"
            for name in args.peers:
                if name in theirs:
                    ratios[name].append(ours / theirs[name])
                    row += f" {theirs[name]:.0f} | {ratios[name][-1]:.2f} |"
                else:
                    row += " n/a | - |"
            print(row, flush=True)
            for name, fps in [("cule", ours), *theirs.items()]:
                curves.setdefault((game, name), []).append(fps)
    for name, values in ratios.items():
        if values:
            print(f"geometric mean cule / {name}: {_geometric_mean(values):.2f}")
    if args.plot:
        _plot(args.plot, args.envs, curves, f"cule on {where}, v5 preprocessing")
        print(f"plot: {args.plot}")


def main(argv=None) -> None:
    args = parse_args(argv)
    try:
        run(args)
    except (ValueError, FileNotFoundError, RuntimeError) as error:
        sys.exit(f"cule-bench: {error}")


if __name__ == "__main__":
    main()
