#!/usr/bin/env bash
# The main job, from a fresh Debian 12 machine: install what is needed, build, and analyse an
# example trace. Until the diagnosis pipeline lands, "analyse" means: load a synthetic Android
# scheduling trace and print its overview and the busiest threads.
# Usage: tools/quickstart.sh [TRACE]   (default: a generated example trace)
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

echo "== overview"
"$TW" info "$TRACE"
echo
echo "== busiest threads (CPU time)"
"$TW" query "$TRACE" "
  SELECT thread.name AS thread, thread.tid, process.name AS process,
         COUNT(*) AS slices, SUM(sched.dur) / 1e6 AS cpu_ms
  FROM sched JOIN thread USING (utid) LEFT JOIN process USING (upid)
  WHERE thread.utid != 0
  GROUP BY utid ORDER BY cpu_ms DESC LIMIT 10"
echo
echo "== where threads spend their time (thread_state)"
"$TW" query "$TRACE" "
  SELECT state, COUNT(*) AS intervals, SUM(dur) / 1e6 AS total_ms
  FROM thread_state WHERE dur > 0 GROUP BY state ORDER BY total_ms DESC"
