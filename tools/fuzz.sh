#!/usr/bin/env bash
# Builds the libFuzzer targets with clang + ASan/UBSan in ./build-fuzz and runs each briefly.
# Usage: tools/fuzz.sh [seconds per target]
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache hits across clones: paths are hashed relative to the checkout.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
SECONDS_PER_TARGET=${1:-30}
BUILD_DIR=build-fuzz

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  CC=clang-14 CXX=clang++-14 cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTRACEWISE_FUZZERS=ON -DTRACEWISE_TESTS=OFF -DTRACEWISE_BENCHMARKS=OFF >/dev/null
fi
TARGETS=$(ninja -C "$BUILD_DIR" -t targets all | sed -n 's|^tests/fuzz/\([a-z_]*_fuzzer\): .*|\1|p' | sort -u)
if [ -z "$TARGETS" ]; then
  echo "fuzz: no fuzz targets found in $BUILD_DIR" >&2
  exit 1
fi
ninja -C "$BUILD_DIR" -j "${TRACEWISE_JOBS:-2}" $TARGETS
for t in $TARGETS; do
  corpus=$(mktemp -d)
  # A target's seed inputs (tests/fuzz/corpus/<target>/), copied so the run never edits them.
  if [ -d "tests/fuzz/corpus/$t" ]; then cp "tests/fuzz/corpus/$t"/* "$corpus"/; fi
  # A target's token dictionary, when it has one (tests/fuzz/dicts/<target>.dict).
  dict=()
  if [ -f "tests/fuzz/dicts/$t.dict" ]; then dict=(-dict="tests/fuzz/dicts/$t.dict"); fi
  echo "fuzz: $t for ${SECONDS_PER_TARGET}s"
  "$BUILD_DIR/tests/fuzz/$t" -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 \
    -print_final_stats=0 "${dict[@]}" "$corpus" 2>&1 | tail -n 3
  rm -rf "$corpus"
done
echo "fuzz: all targets ran without findings"
