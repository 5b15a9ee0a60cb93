-- The ANRs system_server reported in the trace (android_anrs), with type,
-- subject, intent/component and timeouts.

-- The ANR type a subject line names (system_server's own ANRs with an unknown subject are
-- watchdog timeouts).
CREATE PERFETTO FUNCTION _extract_anr_type(subject STRING, process_name STRING)
RETURNS STRING AS
SELECT CASE
  WHEN $subject IS NULL THEN NULL
  WHEN $subject GLOB 'Broadcast of*' THEN 'BROADCAST_OF_INTENT'
  WHEN $subject GLOB 'Input dispatching timed out*does not have a focused window*'
    THEN 'INPUT_DISPATCHING_TIMEOUT_NO_FOCUSED_WINDOW'
  WHEN $subject GLOB 'Input dispatching timed out*Waiting because no window has focus but there is a focused application*'
    THEN 'INPUT_DISPATCHING_TIMEOUT_NO_FOCUSED_WINDOW'
  WHEN $subject GLOB 'Input dispatching timed out*' THEN 'INPUT_DISPATCHING_TIMEOUT'
  WHEN $subject GLOB 'Context.startForegroundService() did not then call Service.startForeground()*'
    THEN 'START_FOREGROUND_SERVICE'
  WHEN $subject GLOB 'executing service*' THEN 'EXECUTING_SERVICE'
  WHEN $subject GLOB 'ContentProvider not responding*' THEN 'CONTENT_PROVIDER_NOT_RESPONDING'
  WHEN $subject = 'App requested: Buffer processing hung up due to stuck fence. Indicates GPU hang'
    THEN 'GPU_HANG'
  WHEN $subject GLOB 'No response to onStartJob*' THEN 'JOB_SERVICE_START'
  WHEN $subject GLOB 'No response to onStopJob*' THEN 'JOB_SERVICE_STOP'
  WHEN $subject GLOB 'Timed out while trying to bind*' THEN 'JOB_SERVICE_BIND'
  WHEN $subject GLOB 'Process ProcessRecord{*} failed to complete startup' THEN 'BIND_APPLICATION'
  WHEN $subject GLOB 'A foreground service of FOREGROUND_SERVICE_TYPE_SHORT_SERVICE did not stop within a timeout*'
    THEN 'FOREGROUND_SHORT_SERVICE_TIMEOUT'
  WHEN $subject GLOB 'A foreground service of type*' THEN 'FOREGROUND_SERVICE_TIMEOUT'
  WHEN $subject GLOB 'App requested: *' THEN 'APP_TRIGGERED'
  WHEN $subject GLOB 'required notification not provided*' THEN 'JOB_SERVICE_NOTIFICATION_NOT_PROVIDED'
  WHEN $process_name = 'system_server' THEN 'SYSTEM_SERVER_WATCHDOG_TIMEOUT'
  ELSE 'UNKNOWN_ANR_TYPE'
END;

-- The intent flags of a "Broadcast of Intent { ... flg=0x... }" subject.
CREATE PERFETTO FUNCTION _get_broadcast_flag(subject STRING)
RETURNS LONG AS
SELECT CASE
  WHEN $subject IS NULL OR NOT ($subject GLOB 'Broadcast of Intent *flg=*') THEN NULL
  ELSE unhex(str_split(substr($subject, instr($subject, ' flg=') + 5), ' ', 0))
END;

-- AOSP's default timeout (ms) for an ANR type; foreground broadcasts (FLAG_RECEIVER_FOREGROUND,
-- 0x10000000) time out after 10 s, background ones after 60 s. OEMs may differ.
CREATE PERFETTO FUNCTION _default_anr_dur(anr_type STRING, subject STRING)
RETURNS LONG AS
SELECT CASE $anr_type
  WHEN 'BROADCAST_OF_INTENT' THEN
    IIF(_get_broadcast_flag($subject) IS NOT NULL
          AND (_get_broadcast_flag($subject) & 268435456) = 0, 60000, 10000)
  WHEN 'INPUT_DISPATCHING_TIMEOUT' THEN 5000
  WHEN 'INPUT_DISPATCHING_TIMEOUT_NO_FOCUSED_WINDOW' THEN 5000
  WHEN 'START_FOREGROUND_SERVICE' THEN 30000
  WHEN 'EXECUTING_SERVICE' THEN 20000
  WHEN 'JOB_SERVICE_START' THEN 8000
  WHEN 'JOB_SERVICE_STOP' THEN 8000
  WHEN 'JOB_SERVICE_BIND' THEN 8000
  WHEN 'JOB_SERVICE_NOTIFICATION_NOT_PROVIDED' THEN 8000
  WHEN 'BIND_APPLICATION' THEN 15000
  WHEN 'FOREGROUND_SHORT_SERVICE_TIMEOUT' THEN 180000
  WHEN 'FOREGROUND_SERVICE_TIMEOUT' THEN 30000
  ELSE NULL
END;

-- "... Blocked in handler ... for 2s" → 2000.
CREATE PERFETTO FUNCTION _extract_anr_duration_from_subject(subject STRING)
RETURNS LONG AS
SELECT CASE
  WHEN $subject GLOB '*Blocked in* for [0-9]*s*'
    THEN cast_int!(str_split(substr($subject, instr($subject, ' for ') + 5), 's', 0)) * 1000
  ELSE NULL
END;

-- Timer names of the platform's ANR timer that differ from the standard types.
CREATE PERFETTO FUNCTION _platform_to_standard_anr_type(platform STRING)
RETURNS STRING AS
SELECT CASE $platform
  WHEN 'BROADCAST_TIMEOUT' THEN 'BROADCAST_OF_INTENT'
  WHEN 'SERVICE_TIMEOUT' THEN 'EXECUTING_SERVICE'
  WHEN 'SHORT_FGS_TIMEOUT' THEN 'FOREGROUND_SHORT_SERVICE_TIMEOUT'
  WHEN 'SERVICE_FOREGROUND_TIMEOUT' THEN 'FOREGROUND_SERVICE_TIMEOUT'
  WHEN 'JobScheduler' THEN NULL
  ELSE $platform
END;

-- The broadcast action of a broadcast ANR.
CREATE PERFETTO FUNCTION _get_intent(anr_type STRING, subject STRING)
RETURNS STRING AS
SELECT CASE
  WHEN $anr_type = 'BROADCAST_OF_INTENT' AND $subject GLOB 'Broadcast of Intent *act=*'
    THEN str_split(substr($subject, instr($subject, 'act=') + 4), ' ', 0)
  WHEN $anr_type = 'BROADCAST_OF_INTENT' AND $subject GLOB 'Broadcast of */u*'
    THEN str_split(substr($subject, instr($subject, 'Broadcast of ') + 13), '/u', 0)
  ELSE NULL
END;

-- The component (package/class) an ANR subject names, where its type carries one.
CREATE PERFETTO FUNCTION _get_component(anr_type STRING, subject STRING)
RETURNS STRING AS
SELECT CASE $anr_type
  WHEN 'BROADCAST_OF_INTENT'
    THEN str_split(substr($subject, instr($subject, ' cmp=') + 5), ' ', 0)
  WHEN 'INPUT_DISPATCHING_TIMEOUT'
    THEN str_split(substr($subject, instr($subject, '(') + 1), ' ', 1)
  WHEN 'START_FOREGROUND_SERVICE'
    THEN str_split(
      substr($subject, instr($subject, ' u') + 1
                       + instr(substr($subject, instr($subject, ' u') + 1), ' ')),
      ' ', 0)
  WHEN 'EXECUTING_SERVICE'
    THEN str_split(substr($subject, instr($subject, 'executing service ') + 18), ',', 0)
  WHEN 'FOREGROUND_SHORT_SERVICE_TIMEOUT'
    THEN str_split(substr($subject, instr($subject, 'ComponentInfo{') + 14), '}', 0)
  WHEN 'FOREGROUND_SERVICE_TIMEOUT'
    THEN str_split(substr($subject, instr($subject, 'ComponentInfo{') + 14), '}', 0)
  WHEN 'APP_TRIGGERED' THEN substr($subject, instr($subject, 'App requested: ') + 15)
  ELSE NULL
END;

-- One row per ANR. system_server marks each with a counter "ErrorId:<process>[ <pid>]#<uuid>"
-- and names its subject in a counter "Subject(for ErrorId <uuid>):<subject>". When the ANR
-- timer's "expired(<id>,<pid>,<uid>,<type>,<ms>)" slice is present, the latest one of that
-- pid before the ANR gives type and duration; otherwise they come from the subject.
CREATE PERFETTO TABLE android_anrs(
  -- The process that did not respond.
  process_name STRING,
  -- Its pid.
  pid LONG,
  -- That process (process.id).
  upid JOINID(process.id),
  -- The ANR's unique id (shared by its slices and logs).
  error_id STRING,
  -- When system_server detected the ANR (trace clock, ns).
  ts TIMESTAMP,
  -- The ANR's subject line (why: input dispatching timed out, ...).
  subject STRING,
  -- For broadcast ANRs: the intent not handled in time.
  intent STRING,
  -- For service ANRs: the component that did not respond.
  component STRING,
  -- Time from the ANR timer expiring to the ANR being recorded, in ns, when the timer is
  -- in the trace.
  timer_delay LONG,
  -- The kind of ANR (INPUT_DISPATCHING_TIMEOUT, BROADCAST_OF_INTENT, ...).
  anr_type STRING,
  -- How long the app had to respond: from the timer, or the subject line, in ms.
  anr_dur_ms LONG,
  -- AOSP's default timeout for that kind of ANR, in ms (OEMs may differ).
  default_anr_dur_ms LONG
) AS
WITH
  anr AS (
    SELECT
      str_split(substr(str_split(t.name, '#', 0), 9), ' ', 0) AS process_name,
      cast_int!(str_split(substr(str_split(t.name, '#', 0), 9), ' ', 1)) AS pid,
      str_split(t.name, '#', 1) AS error_id,
      c.ts
    FROM process_counter_track AS t
    JOIN process AS p USING (upid)
    JOIN counter AS c ON c.track_id = t.id
    WHERE t.name GLOB 'ErrorId:*' AND p.name = 'system_server'
  ),
  subject AS (
    SELECT
      substr(str_split(t.name, ')', 0), 21) AS error_id,
      substr(t.name, length(str_split(t.name, ')', 0)) + 3) AS subject
    FROM process_counter_track AS t
    JOIN process AS p USING (upid)
    WHERE t.name GLOB 'Subject(for ErrorId *' AND p.name = 'system_server'
  ),
  timer AS (
    SELECT
      ts AS timer_ts,
      cast_int!(str_split(params, ',', 1)) AS pid,
      str_split(params, ',', 3) AS anr_type,
      cast_int!(str_split(params, ',', 4)) AS anr_dur_ms
    FROM (
      SELECT ts, trim(substr(name, 9), ')') AS params
      FROM slice
      WHERE name GLOB 'expired(*,*,*,*,*)'
    )
  ),
  best_timer AS (
    SELECT error_id, timer_ts, anr_type, anr_dur_ms
    FROM (
      SELECT a.error_id, t.timer_ts, t.anr_type, t.anr_dur_ms,
             ROW_NUMBER() OVER (PARTITION BY a.error_id ORDER BY a.ts - t.timer_ts) AS rn
      FROM anr AS a
      JOIN timer AS t ON t.pid = a.pid AND a.ts >= t.timer_ts
    )
    WHERE rn = 1
  ),
  anrs AS (
    SELECT
      a.process_name,
      a.pid,
      (SELECT MIN(p.upid) FROM process AS p WHERE p.pid = a.pid) AS upid,
      a.error_id,
      a.ts,
      s.subject,
      a.ts - bt.timer_ts AS timer_delay,
      COALESCE(_platform_to_standard_anr_type(bt.anr_type),
               _extract_anr_type(s.subject, a.process_name)) AS anr_type,
      COALESCE(bt.anr_dur_ms, _extract_anr_duration_from_subject(s.subject)) AS anr_dur_ms
    FROM anr AS a
    LEFT JOIN subject AS s USING (error_id)
    LEFT JOIN best_timer AS bt USING (error_id)
  )
SELECT
  process_name, pid, upid, error_id, ts, subject,
  _get_intent(anr_type, subject) AS intent,
  _get_component(anr_type, subject) AS component,
  timer_delay, anr_type, anr_dur_ms,
  _default_anr_dur(anr_type, subject) AS default_anr_dur_ms
FROM anrs
ORDER BY ts;
