-- The Android users (not Linux uids) the trace saw (android_user_list).

-- One row per Android user (from the user_list data source): its id, often joined with
-- android_process_metadata.user_id, and its type (e.g. "android.os.usertype.full.SECONDARY").
CREATE PERFETTO VIEW android_user_list(
  -- The Android user id (0 is the system user).
  android_user_id LONG,
  -- The user's type (android.os.usertype.full.SYSTEM, ...).
  type STRING
) AS
SELECT android_user_id, type FROM __intrinsic_android_user_list;
