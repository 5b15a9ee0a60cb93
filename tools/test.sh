#!/usr/bin/env bash
# The whole test suite: installs dependencies, builds, runs every ctest test (unit, integration,
# Perfetto diff tests when ../shared is present) and a short fuzzing run of the importer.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/setup.sh
bash tools/build.sh
ctest --test-dir "${TRACEWISE_BUILD_DIR:-build}" --output-on-failure -j 2
bash tools/fuzz.sh "${TRACEWISE_FUZZ_SECONDS:-30}"
