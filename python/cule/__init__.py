"""cule: a GPU-resident Atari 2600 emulator for reinforcement learning."""

from cule._core import Console, ConsoleState, CpuRunResult, FlatMachine, __version__, cuda_device_count

__all__ = ["Console", "ConsoleState", "CpuRunResult", "FlatMachine", "__version__", "cuda_device_count"]
