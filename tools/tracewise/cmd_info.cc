// `tracewise info TRACE`: what the trace is (format, size, time bounds), what it contained
// (packets and events by kind, table sizes), what went wrong (non-zero error/data-loss stats)
// and what loading it cost (time, peak memory).

#include <cstdio>

#include "absl/strings/str_format.h"
#include "libs/common/units.h"
#include "libs/trace/trace_loader.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {

int RunInfo(const Args& args) {
  if (args.size() != 1) {
    std::fprintf(stderr, "usage: tracewise info TRACE\n");
    return 2;
  }
  auto loaded = LoadTraceFile(args[0]);
  if (!loaded.ok()) {
    std::fprintf(stderr, "tracewise: cannot load %s: %s\n", args[0].c_str(),
                 std::string(loaded.status().message()).c_str());
    return 1;
  }
  LoadedTrace& trace = **loaded;
  const LoadInfo& info = trace.info();
  TraceStorage& s = trace.storage();
  std::printf("trace        %s\n", args[0].c_str());
  std::printf("format       %s%s\n", info.format.c_str(), info.gzip ? " (gzip)" : "");
  std::printf("size         %s on disk, %s decoded\n", FormatBytes(info.file_bytes).c_str(),
              FormatBytes(info.decoded_bytes).c_str());
  std::printf("time bounds  %lld .. %lld ns (%s)\n", static_cast<long long>(s.start_ts()),
              static_cast<long long>(s.end_ts()),
              FormatDurationNs(s.end_ts() - s.start_ts()).c_str());
  std::printf("load         %s (decode %s, sort+track %s, finalize+sql %s)\n",
              FormatDurationNs(info.load_ns).c_str(), FormatDurationNs(info.decode_ns).c_str(),
              FormatDurationNs(info.sort_and_track_ns).c_str(),
              FormatDurationNs(info.finalize_ns).c_str());
  std::printf("memory       peak RSS %s, tables+strings %s\n",
              FormatBytes(info.peak_rss_bytes).c_str(), FormatBytes(info.storage_bytes).c_str());
  std::printf("\npackets      %lld\n", static_cast<long long>(info.packets));
  for (const auto& [kind, n] : info.packet_kinds) {
    std::printf("  %-28s %lld\n", kind.c_str(), static_cast<long long>(n));
  }
  std::printf("\nevents       %lld\n", static_cast<long long>(info.events));
  for (const auto& [kind, n] : info.event_kinds) {
    std::printf("  %-28s %lld\n", kind.c_str(), static_cast<long long>(n));
  }
  std::printf("\ntables\n");
  for (Table* t : s.AllTables()) {
    if (t->row_count() == 0) continue;
    std::printf("  %-28s %u rows\n", t->name().c_str(), t->row_count());
  }
  auto stats = trace.Query(
      "SELECT name, idx, severity, value FROM stats "
      "WHERE value != 0 AND severity IN ('error', 'data_loss') ORDER BY name, idx");
  std::printf("\nstats with errors or data loss\n");
  if (!stats.ok()) {
    std::printf("  (unavailable: %s)\n", std::string(stats.status().message()).c_str());
  } else if (stats->rows.empty()) {
    std::printf("  none\n");
  } else {
    for (const auto& row : stats->rows) {
      std::string idx = row[1].is_null() ? "" : absl::StrFormat("[%d]", row[1].int_value);
      std::printf("  %-40s %-10s %lld\n", (row[0].string_value + idx).c_str(),
                  row[2].string_value.c_str(), static_cast<long long>(row[3].int_value));
    }
  }
  return 0;
}

}  // namespace tw::cli
