"""cule: a GPU-resident Atari 2600 emulator for reinforcement learning."""

from cule._core import CpuRunResult, FlatMachine, __version__, cuda_device_count

__all__ = ["CpuRunResult", "FlatMachine", "__version__", "cuda_device_count"]
