// linux.cpu.idle: each CPU's idle state as intervals of constant value (cpu_idle_counters).
#include "libs/trace/stdlib/stdlib.h"

namespace tw::stdlib_modules {
extern const SqlModule kLinuxCpuIdle;
const SqlModule kLinuxCpuIdle = {"linux.cpu.idle", R"sql(
INCLUDE PERFETTO MODULE counters.intervals;

-- One row per cpuidle sample: the idle state a CPU was in from ts for dur. -1 means active
-- (the kernel reports it as 4294967295); larger values are deeper states.
CREATE PERFETTO TABLE cpu_idle_counters(
  id LONG, track_id JOINID(track.id), ts TIMESTAMP, dur DURATION, idle LONG, cpu LONG
) AS
SELECT
  iv.id,
  iv.track_id,
  iv.ts,
  iv.dur,
  cast_int!(IIF(iv.value = 4294967295, -1, iv.value)) AS idle,
  t.cpu
FROM counter_leading_intervals!((
  SELECT cn.id, cn.ts, cn.track_id, cn.value
  FROM counter AS cn
  JOIN cpu_counter_track AS ct ON ct.id = cn.track_id
  WHERE ct.name = 'cpuidle'
)) AS iv
JOIN cpu_counter_track AS t ON t.id = iv.track_id;
)sql"};
}  // namespace tw::stdlib_modules
