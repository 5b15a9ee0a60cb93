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
  TRACE=out/example_sched.pftrace
  if [ ! -f "$TRACE" ]; then
    echo "== generating an example trace: 8 CPUs, 10 s of busy scheduling with atrace markers"
    "$TW" synth-sched "$TRACE" --cpus=8 --seconds=10 --encoding=compact --print-rate=200
  fi
fi

QUESTION=${2:-"which threads keep the CPUs busy, and do they wait for a CPU?"}
echo "== overview"
"$TW" info "$TRACE" | head -12
echo
echo "== diagnosis: $QUESTION"
"$TW" analyze "$TRACE" "$QUESTION"
