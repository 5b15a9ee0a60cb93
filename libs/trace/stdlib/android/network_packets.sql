-- Network traffic from the android.network_packets data source (one slice per packet, or per
-- bundle of packets with the same context, on "<interface> <direction>" tracks), and an idle
-- timeout model of how long the traffic keeps an interface up: a radio stays connected for a
-- while (often ten seconds or more) after the last packet, so each burst costs more uptime
-- than its own duration.

INCLUDE PERFETTO MODULE std.metasql.unparenthesize;

-- One row per network packet event (a single packet or an aggregate of several).
CREATE PERFETTO VIEW android_network_packets(
  -- The event's slice (slice.id).
  id ID(slice.id),
  -- When the packet (or the aggregate's first packet) was seen (trace clock, ns).
  ts TIMESTAMP,
  -- The aggregate's duration in ns; 0 for a single packet.
  dur DURATION,
  -- The track's name: the interface and the direction ("wlan0 Transmitted").
  track_name STRING,
  -- The package owning the socket, else "uid=<uid>".
  package_name STRING,
  -- The Linux network interface ("wlan0", "rmnet_data0", ...).
  iface STRING,
  -- 'Transmitted', 'Received' or 'DIR_UNKNOWN'.
  direction STRING,
  -- How many packets the event stands for.
  packet_count LONG,
  -- Their total length on the wire, in bytes.
  packet_length LONG,
  -- The transport protocol ("IPPROTO_TCP", "IPPROTO_UDP", ...).
  packet_transport STRING,
  -- The TCP flags as letters, one per flag bit set (fin, syn, rst, psh, ack, urg, ece, cwr),
  -- '.' for a bit clear; NULL for non-TCP traffic.
  packet_tcp_flags STRING,
  -- The socket's Android traffic tag, in hex ("0x0").
  socket_tag STRING,
  -- The Linux uid owning the socket.
  socket_uid LONG,
  -- The local port (TCP and UDP only).
  local_port LONG,
  -- The remote port (TCP and UDP only).
  remote_port LONG,
  -- The ICMP type (ICMP only).
  packet_icmp_type LONG,
  -- The ICMP code (ICMP only).
  packet_icmp_code LONG,
  -- The TCP flags as a bitmask (FIN = 0x1, SYN = 0x2, ...).
  packet_tcp_flags_int LONG,
  -- The socket's traffic tag as an integer.
  socket_tag_int LONG
) AS
SELECT
  p.slice_id AS id,
  s.ts,
  s.dur,
  t.name AS track_name,
  s.name AS package_name,
  p.iface,
  p.direction,
  p.packet_count,
  p.packet_length,
  p.packet_transport,
  p.packet_tcp_flags_str AS packet_tcp_flags,
  p.socket_tag_str AS socket_tag,
  p.socket_uid,
  p.local_port,
  p.remote_port,
  p.packet_icmp_type,
  p.packet_icmp_code,
  p.packet_tcp_flags AS packet_tcp_flags_int,
  p.socket_tag AS socket_tag_int
FROM __intrinsic_android_network_packets AS p
JOIN slice AS s ON s.id = p.slice_id
JOIN track AS t ON t.id = s.track_id;

-- $src with, per partition, the latest end among the earlier rows (max_end_so_far, NULL for
-- the first) and a group number (group_id, from 1) that grows each time a row starts after
-- everything before it ended: rows of one group overlap or touch one after another.
CREATE PERFETTO MACRO _android_network_overlap_groups(
  -- A table or subquery with ts, dur and the partition columns.
  src TableOrSubquery,
  -- The columns to partition by, in parentheses.
  partition_columns ColumnNameList
)
-- $src's rows with max_end_so_far and group_id added.
RETURNS TableOrSubquery AS (
  WITH
    _with_prior_end AS (
      SELECT
        *,
        MAX(ts + dur) OVER (
          PARTITION BY metasql_unparenthesize_exprlist!($partition_columns)
          ORDER BY ts
          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS max_end_so_far
      FROM $src
    )
  SELECT
    *,
    SUM(IIF(max_end_so_far IS NULL OR ts > max_end_so_far, 1, 0)) OVER (
      PARTITION BY metasql_unparenthesize_exprlist!($partition_columns)
      ORDER BY ts
    ) AS group_id
  FROM _with_prior_end
);

-- The stretches an interface stays up under an idle timeout: every event keeps it up until
-- $timeout after it ends, and events whose uptime overlaps merge into one span.
CREATE PERFETTO MACRO android_network_uptime_spans(
  -- The network events: a table or subquery with the partition columns, ts, dur,
  -- packet_count and packet_length.
  src TableOrSubquery,
  -- The columns to partition by (e.g. (iface)), in parentheses.
  partition_columns ColumnNameList,
  -- The idle timeout, in ns.
  timeout Expr
)
-- Rows of (the partition columns, ts, dur, packet_count, packet_length): each span's start,
-- its length including the trailing timeout, and the packets and bytes in it.
RETURNS TableOrSubquery AS (
  WITH
    -- Events in the same timeout-long bucket are merged first: this keeps the overlap
    -- detection below cheap on millions of packets and does not change the spans.
    _buckets AS (
      SELECT
        metasql_unparenthesize_exprlist!($partition_columns),
        MIN(ts) AS ts,
        MAX(ts + dur + $timeout) - MIN(ts) AS dur,
        SUM(packet_count) AS packet_count,
        SUM(packet_length) AS packet_length
      FROM $src
      GROUP BY metasql_unparenthesize_exprlist!($partition_columns), CAST(ts / $timeout AS INT)
    )
  SELECT
    metasql_unparenthesize_exprlist!($partition_columns),
    MIN(ts) AS ts,
    MAX(ts + dur) - MIN(ts) AS dur,
    SUM(packet_count) AS packet_count,
    SUM(packet_length) AS packet_length
  FROM _android_network_overlap_groups!(_buckets, $partition_columns)
  GROUP BY metasql_unparenthesize_exprlist!($partition_columns), group_id
);

-- How much uptime each network event costs under an idle timeout. An event that starts a
-- group of overlapping events costs the time since the previous group ended, at most
-- $timeout (the full timeout for the first); the group's own duration is shared between its
-- events by packet count. So a single packet 4 s after another, with a 10 s timeout, costs
-- 4 s; a 5 s aggregate of 9 packets with one packet inside it costs 10 + 4.5 s and 0.5 s.
CREATE PERFETTO MACRO android_network_uptime_cost(
  -- The network events: a table or subquery with id, ts, dur, packet_count and the
  -- partition columns.
  src TableOrSubquery,
  -- The columns to partition by (e.g. (iface)), in parentheses.
  partition_columns ColumnNameList,
  -- The idle timeout, in ns.
  timeout Expr
)
-- Rows of (id, uptime_cost): the event's id and its cost in ns.
RETURNS TableOrSubquery AS (
  WITH
    _grouped AS (
      SELECT
        *,
        SUM(packet_count) OVER grp AS group_packets,
        MAX(ts + dur) OVER grp - MIN(ts) OVER grp AS group_dur
      FROM _android_network_overlap_groups!($src, $partition_columns)
      WINDOW grp AS (PARTITION BY metasql_unparenthesize_exprlist!($partition_columns), group_id)
    )
  SELECT
    id,
    -- Inside a group max_end_so_far is past ts, which clamps the first part to 0.
    COALESCE(MAX(0, MIN($timeout, ts - max_end_so_far)), $timeout)
      + group_dur * packet_count / group_packets AS uptime_cost
  FROM _grouped
);
