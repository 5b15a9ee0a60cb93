// android.user_list: the Android users (not Linux uids) the trace saw (android_user_list).
#include "libs/trace/stdlib/stdlib.h"

namespace tw::stdlib_modules {
extern const SqlModule kAndroidUserList;
// The trace tables do not record the android.user_list data source yet, so the view is empty
// (with trace_processor's columns) until storage grows an android_user_list table.
const SqlModule kAndroidUserList = {"android.user_list", R"sql(
-- One row per Android user: its id and its type (e.g. "android.os.usertype.full.SECONDARY").
CREATE PERFETTO VIEW android_user_list(android_user_id LONG, type STRING) AS
SELECT CAST(NULL AS INT) AS android_user_id, CAST(NULL AS TEXT) AS type
WHERE FALSE;
)sql"};
}  // namespace tw::stdlib_modules
