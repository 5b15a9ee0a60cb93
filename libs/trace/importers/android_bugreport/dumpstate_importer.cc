#include "libs/trace/importers/android_bugreport/dumpstate_importer.h"

#include "libs/trace/importers/systrace/line_reader.h"

namespace tw {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

DumpstateImporter::DumpstateImporter(TraceStorage* storage, EventSorter* sorter)
    : storage_(storage), battery_(storage, sorter) {}

absl::Status DumpstateImporter::Import(ChunkSource* source) {
  LineReader reader(source);
  TextLine line;
  while (true) {
    absl::StatusOr<bool> next = reader.Next(&line);
    if (!next.ok()) {
      if (stats_.lines == 0) return next.status();
      storage_->IncrementStat("trace_truncated");
      break;
    }
    if (!*next) break;
    ++stats_.lines;
    // An overlong line is kept by its head: no marker or checkin line is that long.
    OnLine(line.text);
  }
  stats_.bytes = reader.bytes_read();
  return absl::OkStatus();
}

void DumpstateImporter::OnLine(std::string_view line) {
  // "------ NAME (command) ------" opens a section; "------ 0.356s was the duration of 'NAME'
  // ------" closes it. Neither is a row.
  constexpr std::string_view kMarker = "------ ", kMarkerEnd = " ------";
  if (line.size() >= kMarker.size() + kMarkerEnd.size() && StartsWith(line, kMarker) &&
      EndsWith(line, kMarkerEnd)) {
    const std::string_view name =
        line.substr(kMarker.size(), line.size() - kMarker.size() - kMarkerEnd.size());
    service_name_ = kNullStringId;
    if (name.find("was the duration of") != std::string_view::npos) {
      section_name_ = kNullStringId;
      return;
    }
    section_name_ = storage_->Intern(name);
    section_ = Section::kOther;
    if (StartsWith(name, "DUMPSYS")) {
      section_ = Section::kDumpsys;
    } else if (StartsWith(name, "SYSTEM LOG") || StartsWith(name, "EVENT LOG") ||
               StartsWith(name, "RADIO LOG")) {
      // KERNEL LOG repeats what SYSTEM LOG holds: it stays an ordinary section.
      section_ = Section::kLog;
    } else if (StartsWith(name, "BLOCK STAT")) {
      // One section for every block device's stats.
      section_name_ = storage_->Intern("BLOCK STAT");
    } else if (StartsWith(name, "CHECKIN BATTERYSTATS")) {
      section_ = Section::kBatteryStats;
    }
    return;
  }
  if (section_ == Section::kDumpsys) {
    // "--------- 0.012s was the duration of dumpsys NAME" ends a service's dump; a rule of
    // dashes separates services.
    if (StartsWith(line, "--------- ") &&
        line.find("was the duration of dumpsys") != std::string_view::npos) {
      service_name_ = kNullStringId;
      return;
    }
    if (service_name_ == kNullStringId &&
        StartsWith(line, "----------------------------------------------")) {
      return;
    }
  }
  // A standalone checkin dump starts with its version line.
  if (StartsWith(line, "9,0,i,vers,")) section_ = Section::kBatteryStats;

  if (section_ == Section::kDumpsys && StartsWith(line, "DUMP OF SERVICE")) {
    // "DUMP OF SERVICE [CRITICAL|HIGH] name:"
    std::string_view service = line.substr(line.rfind(' ') + 1);
    if (EndsWith(service, ":")) service.remove_suffix(1);
    service_name_ = storage_->Intern(service);
  } else if (section_ == Section::kBatteryStats) {
    if (!battery_.ParseLine(line)) storage_->IncrementStat("android_br_parse_errors");
  }
  if (section_name_ != kNullStringId) ++stats_.sections[std::string(storage_->Str(section_name_))];
  storage_->android_dumpstate.Insert(
      {.section = section_name_, .service = service_name_, .line = storage_->Intern(line)});
}

}  // namespace tw
