"""Frames per second of cule's CPU VecEnv against ale-py's AtariVectorEnv and
EnvPool, in the same run: cule-bench (python/cule/bench.py, whose help says
what is measured), under the name that benchmarks/RESULTS.md's commands use.

    python benchmarks/vec_env_vs_ale.py --games pong breakout --envs 1 2 4 8 16 --threads 2 --plot benchmarks/vec_env_fps.png
"""

from cule.bench import main

if __name__ == "__main__":
    main()
