#!/usr/bin/env bash
# The whole test suite: installs dependencies, builds, runs a short fuzzing run of the importers
# and every ctest test (unit, integration, Perfetto diff tests when ../shared is present).
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/setup.sh
bash tools/build.sh
bash tools/fuzz.sh "${TRACEWISE_FUZZ_SECONDS:-30}"
"${TRACEWISE_BUILD_DIR:-build}/tools/tracewise/tracewise" skill validate skills
# Last, so its summary ("N% tests passed, N tests failed out of N") closes the output.
ctest --test-dir "${TRACEWISE_BUILD_DIR:-build}" --output-on-failure -j 2
