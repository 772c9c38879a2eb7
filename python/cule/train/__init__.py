"""cule.train: PPO and A2C on cule environments, with the rollout on the
environments' device and no host copies. Run ``python -m cule.train --help``.

    from cule.train import Config, train
    train(Config(algo="ppo", game="pong", total_timesteps=10_000_000))
"""

from cule.train.config import Config, from_args
from cule.train.trainer import Trainer, load_checkpoint, train

__all__ = ["Config", "Trainer", "from_args", "load_checkpoint", "train"]
