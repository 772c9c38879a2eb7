#!/usr/bin/env bash
# The device check: on a bare GPU machine (nvcc, CMake and ninja present, no
# network), builds the CUDA backend, runs the GPU tests (every GPU result
# bit-identical to the CPU backend's) and prints frames/second and
# frames/hour of VecEnv for Pong and Breakout at 1K-64K environments, with
# the CPU backend on the machine's cores in the same run.
#
# The machine has neither GoogleTest nor ale-py: prepare them here first,
# then send .device along with the device tool (it is git-ignored):
#   benchmarks/gpu/check.sh --prepare     # GoogleTest sources and ale-py's ROMs into .device/
#   (device run, carry [".device"]) bash benchmarks/gpu/check.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${1:-}" = "--prepare" ]; then
  mkdir -p .device/roms
  rm -rf .device/googletest
  cp -r /usr/src/googletest .device/googletest
  # The ROMs come from the user's ale-py, as everywhere; they are not committed.
  .venv/bin/python - <<'PY'
import shutil
from ale_py import roms
for game in roms.get_all_rom_ids():
    shutil.copy(roms.get_rom_path(game), f".device/roms/{game}.bin")
PY
  echo "prepared .device (googletest, roms); carry .device with the device run"
  exit 0
fi

testdata=${CULE_TESTDATA_DIR:-}
[ -n "$testdata" ] || for d in shared/testdata ../shared/testdata; do
  [ -d "$d" ] && testdata=$(cd "$d" && pwd) && break
done
[ -n "$testdata" ] || { echo "check.sh: no shared/testdata found" >&2; exit 2; }

echo "== machine"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
nvcc --version | tail -1
echo "$(nproc) CPU cores"

echo "== build (CUDA, sm_90)"
start=$(date +%s)
gtest_args=()
[ -d .device/googletest ] && gtest_args=(-DCULE_GTEST_SOURCE_DIR="$PWD/.device/googletest")
cmake -S . -B build-gpu -G Ninja -DCULE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCULE_PYTHON=OFF -DCULE_BENCHMARKS=ON -DCULE_TESTDATA_DIR="$testdata" "${gtest_args[@]}" \
  >/dev/null
cmake --build build-gpu -j "$(nproc)" --target cule_tests bench_vec_env bench_m6502_cuda
echo "built in $(($(date +%s) - start)) s"

echo "== GPU tests"
CULE_GPU_ROM_DIR="$PWD/.device/roms" build-gpu/tests/cule_tests --gtest_filter='*Cuda*'

echo "== throughput: VecEnv, CPU backend ($(nproc) cores) and CUDA"
for game in pong breakout; do
  rom=.device/roms/$game.bin
  if [ -f "$rom" ]; then
    build-gpu/benchmarks/bench_vec_env "$rom" --cpu-envs "$((4 * $(nproc)))" --seconds 2 \
      --envs 1024,4096,16384,65536
  else
    echo "($rom missing: run benchmarks/gpu/check.sh --prepare where ale-py is installed)"
  fi
done

echo "== throughput: 6502 core, functional test, first 2M instructions per machine"
build-gpu/benchmarks/bench_m6502_cuda "$testdata/6502/6502_functional_test.bin" 1024 16384 65536
