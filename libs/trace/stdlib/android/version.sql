-- The Android SDK level of the traced device, when the trace says.

-- The device's SDK level (metadata android_sdk_version), NULL if unknown.
CREATE PERFETTO FUNCTION _android_sdk_version()
RETURNS LONG AS
SELECT int_value FROM metadata WHERE name = 'android_sdk_version' LIMIT 1;
