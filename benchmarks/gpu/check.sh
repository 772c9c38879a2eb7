#!/usr/bin/env bash
# The device check: on a bare GPU machine (nvcc, CMake and ninja present, no
# network), builds the CUDA backend, prints frames/second and frames/hour of
# VecEnv for Pong and Breakout at 1K-64K environments, with the CPU backend
# on the machine's cores in the same run, and Breakout at 16K with resets in
# every step (copies against full resets), and runs the GPU tests (every GPU
# result bit-identical to the CPU backend's; C++, and Python with torch where
# the machine's python3 has torch and pybind11). It keeps within
# CULE_CHECK_SECONDS (default 470): the tests get the time the build and the
# throughput runs leave, and a test run cut short counts as failed. The exit
# status reports failures.
#
# The machine has neither GoogleTest, ale-py, gymnasium nor dasm: prepare
# them here first, then send .device and the assembled project games along
# with the device tool (both are git-ignored):
#   benchmarks/gpu/check.sh --prepare     # GoogleTest sources, ale-py's ROMs, gymnasium
#                                         # wheels, and shared/testdata (../shared does not travel)
#   (device run, carry [".device", "python/cule/roms"]) bash benchmarks/gpu/check.sh
#
# After it, on the same machine (build-gpu kept), without the tests:
#   bash benchmarks/gpu/check.sh --sweep [FLAGS ...]   # VecEnv's kernels built with each
#       # set of CUDA flags, all in one build (default: as built; every console of a warp
#       # running an instruction each iteration; the step kernel at 10 blocks per SM; the
#       # CPU's code read byte by byte; consoles up to 8 cycles ahead of the warp's
#       # earliest running; drawing ahead every 8, or every 2, instructions; 12 blocks
#       # per SM; pixels written by byte masks, as the host; spans drawn with every object
#       # on, none left out as out of reach; the CPU loop drawing only at the accesses;
#       # one CPU loop for every cartridge scheme), Pong's frames/s at 64K and 128K
#       # environments for each, within CULE_CHECK_SECONDS
#   bash benchmarks/gpu/check.sh --profile [ENVS]      # Nsight Compute on one step of Pong
#       # (default 65536 environments), summarised by benchmarks/gpu/profile_summary.py;
#       # CULE_PROFILE_DIR keeps the report and its CSV pages
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${1:-}" = "--prepare" ]; then
  mkdir -p .device/roms
  rm -rf .device/googletest .device/testdata
  cp -r /usr/src/googletest .device/googletest
  for d in shared/testdata ../shared/testdata; do
    [ -d "$d" ] && cp -r "$d" .device/testdata && break
  done
  # The ROMs come from the user's ale-py, as everywhere; they are not committed.
  .venv/bin/python - <<'PY'
import shutil
from ale_py import roms
for game in roms.get_all_rom_ids():
    shutil.copy(roms.get_rom_path(game), f".device/roms/{game}.bin")
PY
  # cule.make's Gymnasium adapter needs gymnasium (pure Python wheels).
  .venv/bin/python -m pip download -q --no-deps --only-binary=:all: -d .device/wheels \
    "gymnasium==$(.venv/bin/python -c 'import gymnasium; print(gymnasium.__version__)')" \
    farama-notifications
  echo "prepared .device (googletest, testdata, roms, wheels); carry .device with the device run"
  exit 0
fi

testdata=${CULE_TESTDATA_DIR:-}
[ -n "$testdata" ] || for d in shared/testdata ../shared/testdata .device/testdata; do
  [ -d "$d" ] && testdata=$(cd "$d" && pwd) && break
done
[ -n "$testdata" ] || { echo "check.sh: no shared/testdata found" >&2; exit 2; }

deadline=$(($(date +%s) + ${CULE_CHECK_SECONDS:-470}))
# Seconds to the deadline, less $1 kept for later steps (at least 10).
seconds_left() {
  local left=$((deadline - $(date +%s) - ${1:-0}))
  echo $((left > 10 ? left : 10))
}

echo "== machine"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
nvcc --version | tail -1
echo "$(nproc) CPU cores"

# The Python module too where python3 can build it and torch can test it.
python_args=(-DCULE_PYTHON=OFF)
targets=(cule_tests bench_vec_env bench_m6502_cuda)
if python3 -c "import pybind11, torch, numpy, pytest" 2>/dev/null; then
  python_args=(-DCULE_PYTHON=ON -DPython_EXECUTABLE="$(command -v python3)"
    -Dpybind11_DIR="$(python3 -m pybind11 --cmakedir)")
  targets+=(_core)
fi

echo "== build (CUDA, sm_90)"
start=$(date +%s)
gtest_args=()
[ -d .device/googletest ] && gtest_args=(-DCULE_GTEST_SOURCE_DIR="$PWD/.device/googletest")
cmake -S . -B build-gpu -G Ninja -DCULE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCULE_BENCHMARKS=ON -DCULE_TESTDATA_DIR="$testdata" -DCMAKE_CUDA_FLAGS= \
  -DCULE_SWEEP_CUDA_FLAGS= "${python_args[@]}" "${gtest_args[@]}" >/dev/null

# The --sweep and --profile builds: bench_vec_env for each set of CUDA flags
# given, in `benches` (in order): bench_vec_env itself for an empty set,
# else one whose VecEnv kernels (kernels/env_step.cu) are compiled with the
# set (bench_vec_env_sweep_N, benchmarks/CMakeLists.txt). One build compiles
# them all side by side, and the library stays as it is. A set that fails to
# build leaves no program (the others build on).
build_benches_with() {
  local sets=() targets=(bench_vec_env) flags joined
  benches=()
  rm -f build-gpu/benchmarks/bench_vec_env_sweep_*
  for flags in "$@"; do
    if [ -z "$flags" ]; then
      benches+=(build-gpu/benchmarks/bench_vec_env)
    else
      benches+=("build-gpu/benchmarks/bench_vec_env_sweep_${#sets[@]}")
      targets+=("bench_vec_env_sweep_${#sets[@]}")
      sets+=("$flags")
    fi
  done
  joined=$(IFS='|' && echo "${sets[*]}")
  cmake -S . -B build-gpu -DCULE_SWEEP_CUDA_FLAGS="$joined" >/dev/null
  cmake --build build-gpu -j "$(nproc)" --target "${targets[@]}" -- -k 0 \
    >build-gpu/sweep-build.log 2>&1 || {
    echo "(a set failed to build; its errors, from build-gpu/sweep-build.log:)"
    grep -m 20 -i "error" build-gpu/sweep-build.log || true
  }
}

if [ "${1:-}" = "--sweep" ]; then
  # Builds to compare (kernels/env_step.cu, kernels/console.hpp): how often
  # the CPU loop draws ahead (CULE_DEVICE_DRAW_EVERY, default 4), how the
  # TIA writes pixels (CULE_DEVICE_BYTE_SELECT=0: by byte masks, as the
  # host), the step kernel's register budget, which ptxas meets by spilling
  # (more resident warps hide more latency), and the CPU loops compiled per
  # cartridge scheme (CULE_BUS_FAST_PATHS=0, every bus access a call, is
  # another), whether draw_span leaves out the objects that cannot reach
  # a span (CULE_DEVICE_CULL_OBJECTS, kernels/tia.hpp), and whether the
  # bus reads the CPU's code ahead (CULE_DEVICE_CODE_AHEAD), and how far
  # ahead of its warp's earliest a console may be and still run its next
  # instruction (CULE_DEVICE_WARP_SLACK, default 3; -1: every console runs
  # one each iteration). All sets build at once (build_benches_with).
  shift
  variants=("$@")
  # The default sets, those that say most about the next change first (the
  # deadline skips the last).
  ((${#variants[@]})) || variants=("" "-DCULE_DEVICE_WARP_SLACK=-1"
    "-DCULE_STEP_MIN_BLOCKS_PER_SM=10" "-DCULE_DEVICE_CODE_AHEAD=0" "-DCULE_DEVICE_WARP_SLACK=8"
    "-DCULE_DEVICE_DRAW_EVERY=8" "-DCULE_DEVICE_DRAW_EVERY=2" "-DCULE_STEP_MIN_BLOCKS_PER_SM=12"
    "-DCULE_DEVICE_BYTE_SELECT=0" "-DCULE_DEVICE_CULL_OBJECTS=0" "-DCULE_DEVICE_DRAW_EVERY=0"
    "-DCULE_CPU_LOOP_PER_SCHEME=0")
  build_benches_with "${variants[@]}"
  echo "sets built in $(($(date +%s) - start)) s"
  for i in "${!variants[@]}"; do
    flags=${variants[i]}
    if (($(date +%s) > deadline)); then
      echo "== CUDA flags: ${flags:-(none)}: skipped, past CULE_CHECK_SECONDS"
      continue
    fi
    if [ ! -x "${benches[i]}" ]; then
      echo "== CUDA flags: ${flags:-(none)}: did not build"
      continue
    fi
    echo "== CUDA flags: ${flags:-(none)}"
    "${benches[i]}" .device/roms/pong.bin --cpu-envs 0 --seconds 1 --envs 65536,131072 ||
      echo "(this set's run failed, exit status $?; the sweep goes on)"
  done
  echo "swept in $(($(date +%s) - start)) s"
  exit 0
fi

if [ "${1:-}" = "--profile" ]; then
  # One step kernel of Pong (the first timed step, after the reset and three
  # warm-up steps), with line information for the source view.
  ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null |
    head -1 || true)
  [ -n "$ncu" ] || { echo "check.sh --profile: no ncu (Nsight Compute) here" >&2; exit 2; }
  envs=${2:-65536}
  build_benches_with -lineinfo
  [ -x "${benches[0]}" ] || { echo "check.sh --profile: the -lineinfo build failed" >&2; exit 1; }
  report=${CULE_PROFILE_DIR:-$(mktemp -d)}
  mkdir -p "$report"
  echo "== Nsight Compute: env_step_kernel, Pong, $envs environments"
  "$ncu" --version | tail -1
  "$ncu" --kernel-name regex:env_step_kernel --launch-skip 3 --launch-count 1 --set full \
    --import-source yes -f -o "$report/step" \
    "${benches[0]}" .device/roms/pong.bin --cpu-envs 0 --seconds 0 \
    --envs "$envs" >"$report/bench.log" 2>&1 || { tail -20 "$report/bench.log"; exit 1; }
  "$ncu" --import "$report/step.ncu-rep" --page details --csv >"$report/details.csv"
  "$ncu" --import "$report/step.ncu-rep" --page raw --csv >"$report/raw.csv"
  for view in cuda sass; do
    "$ncu" --import "$report/step.ncu-rep" --page source --csv --print-source "$view" \
      >"$report/source_$view.csv" 2>"$report/source_$view.err" || cat "$report/source_$view.err"
  done
  python3 benchmarks/gpu/profile_summary.py "$report"
  echo "profiled in $(($(date +%s) - start)) s; report in $report"
  exit 0
fi

cmake --build build-gpu -j "$(nproc)" --target "${targets[@]}"
echo "built in $(($(date +%s) - start)) s"

echo "== throughput: VecEnv, CPU backend ($(nproc) cores) and CUDA"
for game in pong breakout; do
  rom=.device/roms/$game.bin
  if [ -f "$rom" ]; then
    build-gpu/benchmarks/bench_vec_env "$rom" --cpu-envs "$((4 * $(nproc)))" --seconds 1 \
      --envs 1024,4096,16384,65536
  else
    echo "($rom missing: run benchmarks/gpu/check.sh --prepare where ale-py is installed)"
  fi
done

# The rows above time steps right after the batch's reset, when few
# episodes end; with thousands of environments some end in every step, and
# a step waits for its resets. These rows keep a 25th of the batch resetting
# in every step: resets as copies (the default), then ALE's whole reset.
echo "== throughput with resets in every step: VecEnv, Breakout, CUDA"
rom=.device/roms/breakout.bin
if [ -f "$rom" ]; then
  resetting=(--cpu-envs 0 --seconds 1 --envs 16384 --reset-every 25)
  build-gpu/benchmarks/bench_vec_env "$rom" "${resetting[@]}"
  build-gpu/benchmarks/bench_vec_env "$rom" "${resetting[@]}" --full-resets
else
  echo "($rom missing: run benchmarks/gpu/check.sh --prepare where ale-py is installed)"
fi

echo "== throughput: 6502 core, functional test, first 2M instructions per machine"
build-gpu/benchmarks/bench_m6502_cuda "$testdata/6502/6502_functional_test.bin" 1024 16384 65536

# The games run on both backends: Pong and Breakout, which the several-games
# test batches together, and games of the cartridge schemes and controllers
# that those and tetris do not cover. A
# GPU thread runs one console at some 20 frames per second, and the games'
# batches are built one after another, so ale-py's 104 games take many
# minutes: CULE_ALL_GAMES=1 runs every one.
games_dir="$PWD/.device/roms"
if [ "${CULE_ALL_GAMES:-0}" != 1 ]; then
  games_dir=$(mktemp -d)
  for game in pong breakout kaboom ms_pacman montezuma_revenge pitfall2 darkchambers \
    elevator_action robotank; do
    [ -f ".device/roms/$game.bin" ] && ln -s "$PWD/.device/roms/$game.bin" "$games_dir/"
  done
fi

failed=()
echo "== GPU tests (C++)"
start=$(date +%s)
# The Python tests keep the last 90 seconds.
CULE_GPU_ROM_DIR="$games_dir" timeout "$(seconds_left 90)" build-gpu/tests/cule_tests \
  --gtest_filter='*Cuda*' || failed+=("C++ GPU tests (status $?; 124: out of time)")
echo "ran in $(($(date +%s) - start)) s"

if [[ " ${targets[*]} " == *" _core "* ]]; then
  echo "== GPU tests (Python, torch $(python3 -c 'import torch; print(torch.__version__)'))"
  site=$(mktemp -d)
  if compgen -G ".device/wheels/*.whl" >/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --target "$site" .device/wheels/*.whl
  fi
  CULE_TESTDATA_DIR="$testdata" CULE_GPU_ROM_DIR="$games_dir" PYTHONPATH="$PWD/python:$site" \
    timeout "$(seconds_left)" \
    python3 -m pytest -q -rs -p no:cacheprovider -k "cuda or gpu" tests/python/test_cuda_env.py \
    tests/python/test_flat_machine.py tests/python/test_train.py ||
    failed+=("Python GPU tests (status $?; 124: out of time)")
else
  echo "(python3 lacks pybind11, torch, numpy or pytest: Python GPU tests skipped)"
fi

if ((${#failed[@]})); then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
if nvidia-smi -L >/dev/null 2>&1; then
  echo "all GPU tests passed"
else
  echo "no GPU here: the GPU tests skipped themselves"
fi
