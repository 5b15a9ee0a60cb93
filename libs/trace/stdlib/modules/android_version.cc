// android.version: the Android SDK level of the traced device, when the trace says.
#include "libs/trace/stdlib/stdlib.h"

namespace tw::stdlib_modules {
extern const SqlModule kAndroidVersion;
const SqlModule kAndroidVersion = {"android.version", R"sql(
-- The device's SDK level (metadata android_sdk_version), NULL if unknown.
CREATE PERFETTO FUNCTION _android_sdk_version()
RETURNS LONG AS
SELECT int_value FROM metadata WHERE name = 'android_sdk_version' LIMIT 1;
)sql"};
}  // namespace tw::stdlib_modules
