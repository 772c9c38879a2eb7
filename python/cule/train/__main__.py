"""python -m cule.train: train PPO or A2C, or --eval a checkpoint."""

import sys

from cule.train.config import from_args


def main(argv=None) -> int:
    config = from_args(argv)
    try:
        if config.eval:
            from cule.train.evaluate import main as evaluate

            evaluate(config)
        else:
            from cule.train.trainer import train

            train(config)
    except (ValueError, FileNotFoundError) as error:
        print(f"python -m cule.train: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
