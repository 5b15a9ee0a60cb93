-- The lines of an Android dumpstate (bugreport) text trace.

-- One row per line of a dumpstate text, with the dumpstate section ("DUMPSYS", "SYSTEM LOG",
-- ...) and, inside DUMPSYS sections, the service whose dump it is. Marker lines that open and
-- close sections and services are not rows.
CREATE PERFETTO VIEW android_dumpstate(
  -- Row id, in file order.
  id ID,
  section STRING,
  service STRING,
  line STRING
) AS
SELECT id, section, service, line FROM __intrinsic_android_dumpstate;
