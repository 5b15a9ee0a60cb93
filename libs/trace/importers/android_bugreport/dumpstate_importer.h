#pragma once
// Imports Android dumpstate text (the main file of a bugreport, `adb bugreport`'s
// dumpstate.txt) and standalone BatteryStats checkin dumps (`dumpsys batterystats -c`).
//
// dumpstate is a flat text file with load-bearing marker lines: "------ NAME (command) ------"
// opens a section (one per command dumpstate ran; "------ 0.3s was the duration of 'NAME'
// ------" closes it), and inside the DUMPSYS sections "DUMP OF SERVICE name:" starts each
// service's dump, "--------- 0.1s was the duration of dumpsys name" ends it. Every other line
// becomes a row of android_dumpstate with its section and service. The CHECKIN BATTERYSTATS
// section (or a whole file starting "9,0,i,vers,") is also read as battery history
// (battery_stats_checkin.h). Log sections are kept as lines only.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "libs/trace/importers/android_bugreport/battery_stats_checkin.h"
#include "libs/trace/reader/chunk_source.h"
#include "libs/trace/sorter/event_sorter.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

struct DumpstateImportStats {
  int64_t lines = 0;
  int64_t bytes = 0;
  std::map<std::string, int64_t> sections;  // dumpstate section → lines in it
};

class DumpstateImporter {
 public:
  DumpstateImporter(TraceStorage* storage, EventSorter* sorter);

  // Errors: only a read error before any line was imported; later damage keeps the lines
  // before it (trace_truncated). Checkin lines that do not parse count in
  // android_br_parse_errors.
  absl::Status Import(ChunkSource* source);

  const DumpstateImportStats& stats() const { return stats_; }

 private:
  enum class Section { kOther, kDumpsys, kLog, kBatteryStats };
  void OnLine(std::string_view line);

  TraceStorage* storage_;
  BatteryStatsCheckin battery_;
  Section section_ = Section::kOther;
  StringId section_name_ = kNullStringId;
  StringId service_name_ = kNullStringId;
  DumpstateImportStats stats_;
};

}  // namespace tw
