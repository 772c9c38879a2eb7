"""Train PPO (or A2C) on Pong with cule's trainer: the CLI with Pong as the game.

    python examples/train_pong.py                                  # CPU or GPU, CleanRL's Atari settings
    python examples/train_pong.py --device cuda --num-envs 1024 --num-steps 32 --num-minibatches 8 --amp
    python examples/train_pong.py --game breakout --total-timesteps 10000000

Any `python -m cule.train` argument works; --game defaults to pong here
(its ROM comes from ale-py).
"""

import sys

from cule.train.__main__ import main

if __name__ == "__main__":
    argv = sys.argv[1:]
    if not any(arg == "--game" or arg.startswith("--game=") for arg in argv):
        argv = ["--game", "pong", *argv]
    sys.exit(main(argv))
