"""cule: a GPU-resident Atari 2600 emulator for reinforcement learning."""

from cule._core import (
    Console,
    ConsoleState,
    CpuRunResult,
    FlatMachine,
    VecEnv,
    VecEnvState,
    __version__,
    cuda_device_count,
    list_games,
    palette_rgb,
    project_games,
)


def _register_gymnasium_ids() -> None:
    """cule/<Game>-v5 for gymnasium.make and make_vec (cule.registration),
    where Gymnasium is installed."""
    try:
        from cule.registration import register_envs
    except ImportError:
        return
    register_envs()


_register_gymnasium_ids()


def make(*args, **kwargs):
    """A Gymnasium vector environment of a game: see cule.vector.make."""
    from cule.vector import make as _make

    return _make(*args, **kwargs)


__all__ = [
    "Console",
    "ConsoleState",
    "CpuRunResult",
    "FlatMachine",
    "VecEnv",
    "VecEnvState",
    "__version__",
    "cuda_device_count",
    "list_games",
    "make",
    "palette_rgb",
    "project_games",
]
