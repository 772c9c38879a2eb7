"""One environment in Gymnasium's single-environment API, as ale-py's
``AtariEnv`` gives it (``gymnasium.make("ALE/Pong-v5")``), on cule:

    import gymnasium, cule
    env = gymnasium.make("cule/Pong-v5")          # or cule.env.AtariEnv("pong")
    obs, info = env.reset(seed=0)                 # obs: the RGB screen, (210, 160, 3)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

The same arguments as AtariEnv (and its defaults), the same observations
(the screen in RGB or grayscale, or the RAM, as the step's last frame leaves
them), rewards, terminations, truncations (ALE's, at the episode frame
number, which counts the reset's frames) and info, and the same seeding:
``reset(seed=s)`` seeds the console with the number AtariEnv draws from
``s`` (``info["seeds"]``), so that with sticky actions off the two play
alike frame for frame. Sticky actions draw from cule's own generator
(DESIGN.md). ``env.ale`` answers the ALEInterface calls that Gymnasium's
``AtariPreprocessing`` makes (``lives``, ``getScreenRGB``,
``getScreenGrayscale``, ``getRAM``). Not offered: a random frame skip (a
tuple), sound observations and ``render_mode="human"``
(``gymnasium.wrappers.HumanRendering`` shows ``"rgb_array"`` frames in a
window).

For throughput use the batches (``cule.make``, ``gymnasium.make_vec``): this
steps one console per Python call.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.spaces import Box
from gymnasium.utils import seeding

from cule.vector import VectorEnv

OBS_TYPES = ("rgb", "grayscale", "ram")
#: ALE's 18 actions by number (ale_py.Action; kernels/ale_controls.hpp).
ACTION_NAMES = (
    "NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT", "UPFIRE",
    "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE", "UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE", "DOWNLEFTFIRE",
)


class AleView:
    """The ALEInterface calls that wrappers of AtariEnv make (Gymnasium's
    AtariPreprocessing) on the environment's console; each fills `out`
    when given, as ALE's do."""

    def __init__(self, env: AtariEnv):
        self._env = env

    def lives(self) -> int:
        return int(self._env._core().lives[0])

    def getScreenRGB(self, out: np.ndarray | None = None) -> np.ndarray:  # noqa: N802 (ALE's names)
        return _filled(out, self._env._core().screen_rgb(0))

    def getScreenGrayscale(self, out: np.ndarray | None = None) -> np.ndarray:  # noqa: N802
        return _filled(out, self._env._core().screen_grayscale(0))

    def getRAM(self, out: np.ndarray | None = None) -> np.ndarray:  # noqa: N802
        return _filled(out, np.array(self._env._core().ram(0)))


def _filled(out: np.ndarray | None, values: np.ndarray) -> np.ndarray:
    if out is None:
        return values
    out[...] = values.reshape(out.shape)
    return out


class AtariEnv(gymnasium.Env):
    """A game of ALE as ``ale_py.env.AtariEnv``, one cule environment."""

    metadata = {"render_modes": ["rgb_array"], "obs_types": list(OBS_TYPES), "render_fps": 30}

    def __init__(
        self,
        game: str,
        mode: int | None = None,
        difficulty: int | None = None,
        obs_type: str = "rgb",
        frameskip: int = 4,
        repeat_action_probability: float = 0.25,
        full_action_space: bool = False,
        continuous: bool = False,
        continuous_action_threshold: float = 0.5,
        max_num_frames_per_episode: int | None = None,
        render_mode: str | None = None,
        sound_obs: bool = False,
    ):
        if obs_type not in OBS_TYPES:
            raise ValueError(f"obs_type: {obs_type!r} is not an observation type; expected one of {OBS_TYPES}")
        if isinstance(frameskip, bool) or not isinstance(frameskip, (int, np.integer)):
            raise ValueError(
                f"frameskip: {frameskip!r}; expected a number of frames (cule has no random frame skip)"
            )
        if render_mode not in (None, "rgb_array"):
            raise ValueError(
                f"render_mode: {render_mode!r}; expected None or 'rgb_array' (gymnasium.wrappers.HumanRendering "
                f"shows those in a window)"
            )
        if sound_obs:
            raise ValueError("sound_obs: cule has no sound; expected False")
        self.render_mode = render_mode
        self._obs_type = obs_type
        self._frameskip = int(frameskip)  # where AtariPreprocessing looks
        # Observations are the console's screen or RAM as the step leaves
        # them, as AtariEnv reads ALE's: where a game ends within a step,
        # that is its last frame, where AtariVectorEnv's observation (the
        # batch's) keeps the frames it captured. So the batch observes the
        # RAM, its cheapest; its screens are drawn all the same.
        self._env = VectorEnv(
            game, 1, obs_type="ram", stack_num=1, frameskip=self._frameskip,
            repeat_action_probability=repeat_action_probability, full_action_space=full_action_space,
            continuous=continuous, continuous_action_threshold=continuous_action_threshold,
            max_num_frames_per_episode=max_num_frames_per_episode, count_reset_frames=True,
            mode=mode, difficulty=difficulty, noop_max=0, use_fire_reset=False, episodic_life=False,
            reward_clipping=False, autoreset_mode="Disabled", num_threads=1,
        )
        self.continuous = continuous
        self.action_space = self._env.single_action_space
        height = self._env.core.screen(0).shape[0]
        shape = {"rgb": (height, 160, 3), "grayscale": (height, 160), "ram": (128,)}[obs_type]
        self.observation_space = Box(0, 255, shape, np.uint8)
        self.ale = AleView(self)
        self._seeded = False

    def _core(self):
        if self._env is None:
            raise ValueError("the environment is closed")
        return self._env.core

    @property
    def core(self):
        """The cule._core.VecEnv of the one environment."""
        return self._core()

    def seed_game(self, seed: int | None = None) -> tuple[int, int]:
        """AtariEnv's seeding: two numbers drawn from `seed`, one for
        np_random and one for the console (ALE's random_seed)."""
        np_seed, ale_seed = np.random.SeedSequence(seed).generate_state(n_words=2)
        self._np_random, _ = seeding.np_random(int(np_seed))
        return int(np_seed), int(ale_seed)

    def _info(self) -> dict[str, Any]:
        core = self._core()
        return {
            "lives": int(core.lives[0]),
            "episode_frame_number": int(core.episode_frame_numbers[0]),
            "frame_number": int(core.frame_numbers[0]),
        }

    def _observation(self) -> np.ndarray:
        if self._obs_type == "rgb":
            return self.ale.getScreenRGB()
        if self._obs_type == "grayscale":
            return self.ale.getScreenGrayscale()
        return self.ale.getRAM()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """A new game: the console rebuilt with AtariEnv's seed when `seed`
        is given (or on the first reset), else ALE's reset of the game."""
        super().reset(seed=seed, options=options)
        self._core()
        seeds = None
        if seed is not None or not self._seeded:
            seeds = self.seed_game(seed)
            # ALE takes its random_seed as a 32-bit int: the same bits.
            self._env.reset(seed=np.array([seeds[1]], dtype=np.int64))
            self._seeded = True
        else:
            self._env.reset()
        info = self._info()
        if seed is not None:
            info["seeds"] = seeds
        return self._observation(), info

    def step(self, action):
        """One step: the action for frameskip frames (sticky actions
        aside); the reward is their sum."""
        self._core()
        if self.continuous:
            action = np.asarray(action, dtype=np.float32)
            if action.shape != (3,):
                raise ValueError(f"action: a continuous action is (radius, angle, fire), shape (3,); got {action.shape}")
            actions = action[None]
        else:
            if np.ndim(action) != 0:
                raise ValueError(f"action: expected one action index, got an array of shape {np.shape(action)}")
            actions = np.array([action])
        _, reward, terminated, truncated, _ = self._env.step(actions)
        return self._observation(), float(reward[0]), bool(terminated[0]), bool(truncated[0]), self._info()

    def render(self) -> np.ndarray:
        """With render_mode "rgb_array", the screen in RGB (getScreenRGB)."""
        if self.render_mode != "rgb_array":
            raise gymnasium.error.Error(
                f"render_mode: {self.render_mode!r}; render() needs render_mode='rgb_array'"
            )
        return self.ale.getScreenRGB()

    def get_action_meanings(self) -> list[str]:
        """The names of the actions, as AtariEnv's."""
        return [ACTION_NAMES[a] for a in self._core().action_set]

    def close(self):
        if self._env is not None:
            self._env.close()
            self._env = None
