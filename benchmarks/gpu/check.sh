#!/usr/bin/env bash
# The device check: on a bare GPU machine (nvcc, CMake and ninja present, no
# network), builds the CUDA backend, runs the GPU tests (GPU results
# bit-identical to the CPU's) and prints the throughput table.
#
# GoogleTest is not installed there: prepare its sources here first, then send
# them along with the device tool:
#   benchmarks/gpu/check.sh --prepare     # copies /usr/src/googletest to .device/
#   (device run, carry [".device"]) bash benchmarks/gpu/check.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${1:-}" = "--prepare" ]; then
  mkdir -p .device
  rm -rf .device/googletest
  cp -r /usr/src/googletest .device/googletest
  echo "prepared .device/googletest; carry .device with the device run"
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

echo "== build (CUDA, sm_90)"
gtest_args=()
[ -d .device/googletest ] && gtest_args=(-DCULE_GTEST_SOURCE_DIR="$PWD/.device/googletest")
cmake -S . -B build-gpu -G Ninja -DCULE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCULE_PYTHON=OFF -DCULE_TESTDATA_DIR="$testdata" "${gtest_args[@]}" >/dev/null
cmake --build build-gpu -j "$(nproc)"

echo "== GPU tests"
build-gpu/tests/cule_tests --gtest_filter='*Cuda*'

echo "== throughput: 6502 core, functional test, first 2M instructions per machine"
build-gpu/benchmarks/bench_m6502_cuda "$testdata/6502/6502_functional_test.bin" 1024 4096 16384 65536
