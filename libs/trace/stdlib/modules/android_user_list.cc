// android.user_list: the Android users (not Linux uids) the trace saw (android_user_list).
#include "libs/trace/stdlib/stdlib.h"

namespace tw::stdlib_modules {
extern const SqlModule kAndroidUserList;
const SqlModule kAndroidUserList = {"android.user_list", R"sql(
-- One row per Android user (from the user_list data source): its id, often joined with
-- android_process_metadata.user_id, and its type (e.g. "android.os.usertype.full.SECONDARY").
CREATE PERFETTO VIEW android_user_list(android_user_id LONG, type STRING) AS
SELECT android_user_id, type FROM __intrinsic_android_user_list;
)sql"};
}  // namespace tw::stdlib_modules
