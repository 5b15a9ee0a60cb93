#!/usr/bin/env bash
# The main job, from a fresh Debian 12 machine: install what is needed, build, and diagnose an
# example trace with `tracewise analyze` (the offline analyst when no LLM is configured).
# Usage: tools/quickstart.sh [TRACE ["question"]]   (default: a generated example trace)
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/setup.sh
bash tools/build.sh tracewise
TW=./build/tools/tracewise/tracewise

TRACE=${1:-}
if [ -z "$TRACE" ]; then
  mkdir -p out
  TRACE=out/example_scroll_binder_jank.pftrace
  if [ ! -f "$TRACE" ]; then
    echo "== generating an example trace: an app scrolling at 90 Hz whose main thread blocks in"
    echo "   binder calls to system_server on some frames (tracegen; ground truth beside it)"
    "$TW" tracegen scroll_binder_jank -o "$TRACE" --seed 7 --duration-s 4 --fps 90
  fi
fi

QUESTION=${2:-"why does scrolling stutter?"}
echo "== overview"
"$TW" info "$TRACE" | head -12
echo
echo "== diagnosis: $QUESTION"
"$TW" analyze "$TRACE" "$QUESTION"
