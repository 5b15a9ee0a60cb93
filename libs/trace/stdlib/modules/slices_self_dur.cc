// slices.self_dur: how long each slice ran outside its children (slice_self_dur).
#include "libs/trace/stdlib/stdlib.h"

namespace tw::stdlib_modules {
extern const SqlModule kSlicesSelfDur;
const SqlModule kSlicesSelfDur = {"slices.self_dur", R"sql(
-- A slice's self duration: its dur minus the durs of its direct children.
CREATE PERFETTO TABLE slice_self_dur(id ID(slice.id), self_dur DURATION) AS
SELECT
  s.id,
  s.dur - IFNULL((SELECT SUM(c.dur) FROM slice AS c WHERE c.parent_id = s.id), 0) AS self_dur
FROM slice AS s
ORDER BY s.id;
)sql"};
}  // namespace tw::stdlib_modules
