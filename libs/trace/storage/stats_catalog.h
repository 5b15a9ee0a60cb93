#pragma once
// The stats a trace can report, with trace_processor's names. Every non-indexed stat appears in
// the `stats` table (value 0 when nothing happened), so queries for a stat always find a row.

#include <string_view>
#include <vector>

namespace tw {

struct StatInfo {
  std::string_view name;
  bool indexed;
  std::string_view severity;  // info | notice | data_loss | error
  std::string_view source;    // trace | analysis
  std::string_view description;
};

const std::vector<StatInfo>& StatsCatalog();
const StatInfo* FindStatInfo(std::string_view name);
// Stats about the import as a whole (parsing time, clock sync, sorting), which belong to no
// machine or trace file: trace_processor's global scope, NULL machine_id and trace_id.
bool IsGlobalStat(std::string_view name);

}  // namespace tw
