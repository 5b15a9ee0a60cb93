#!/usr/bin/env bash
# Configures (once) and builds Tracewise into ./build with Ninja and ccache.
# CI=true turns warnings into errors. Extra arguments are passed to ninja (targets).
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache hits across clones: paths are hashed relative to the checkout.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

BUILD_DIR=${TRACEWISE_BUILD_DIR:-build}
WERROR=OFF
if [ "${CI:-}" = "true" ]; then WERROR=ON; fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTRACEWISE_WERROR="$WERROR" >/dev/null
fi
# Two cores: two jobs keep the machine responsive and memory bounded.
ninja -C "$BUILD_DIR" -j "${TRACEWISE_JOBS:-2}" "$@"
