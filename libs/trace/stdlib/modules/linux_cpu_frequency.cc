// linux.cpu.frequency: each CPU's frequency as intervals of constant value.
#include "libs/trace/stdlib/stdlib.h"

namespace tw::stdlib_modules {
extern const SqlModule kLinuxCpuFrequency;
const SqlModule kLinuxCpuFrequency = {"linux.cpu.frequency", R"sql(
INCLUDE PERFETTO MODULE counters.intervals;

-- One row per cpufreq sample: the frequency (kHz) a CPU ran at from ts for dur.
CREATE PERFETTO TABLE cpu_frequency_counters(
  id LONG, track_id JOINID(track.id), ts TIMESTAMP, dur DURATION, freq LONG, ucpu LONG,
  cpu LONG
) AS
SELECT
  iv.id,
  iv.track_id,
  iv.ts,
  iv.dur,
  cast_int!(iv.value) AS freq,
  c.ucpu,
  t.cpu
FROM counter_leading_intervals!((
  SELECT cn.id, cn.ts, cn.track_id, cn.value
  FROM counter AS cn
  JOIN cpu_counter_track AS ct ON ct.id = cn.track_id
  WHERE ct.name = 'cpufreq'
)) AS iv
JOIN cpu_counter_track AS t ON t.id = iv.track_id
JOIN cpu AS c ON c.cpu = t.cpu AND c.machine_id IS t.machine_id;
)sql"};
}  // namespace tw::stdlib_modules
