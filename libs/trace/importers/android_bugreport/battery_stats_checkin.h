#pragma once
// BatteryStats' checkin format (`dumpsys batterystats -c`, also the "CHECKIN BATTERYSTATS"
// section of a bugreport): comma-separated lines starting with the format version 9. This
// reader keeps what trace_processor imports from it:
//   9,0,i,vers,<version>,...      the batterystats version (wake lock history needs 36+)
//   9,hsp,<index>,<uid>,"<text>"  the history string pool: wake lock and event names by index
//   9,h,<delta ms>,<item>,...     a history step: the clock advances by the delta (REALTIME ms;
//                                 "<n>:TIME:<ms>" sets it) and each item is a change:
//     +x / -x         a state turned on / off      → counter battery_stats.<state> 1 / 0
//                                                    (screen also drives ScreenState 2 / 1)
//     x=<value>       a state's level              → counter battery_stats.<state>
//     Bl Bcc Bv Bs Bp battery level, charge, voltage, status, plug type → battery counters
//     +w=<i> / -w=<i> a wake lock held / released  → slice on the WakeLocks tracks
//     E..=<i>         an event (E top, Ewl wake_lock_in, ...) → instant on battery_stats.<event>
// Each item becomes an event at the step's time; items it does not know are skipped.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libs/trace/sorter/event_sorter.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

class BatteryStatsCheckin {
 public:
  BatteryStatsCheckin(TraceStorage* storage, EventSorter* sorter)
      : storage_(storage), sorter_(sorter) {}

  // One checkin line. False when the line is not a well-formed checkin line (the caller counts
  // it); history items that are not understood are skipped, not failures.
  bool ParseLine(std::string_view line);

 private:
  struct PoolItem {
    int32_t uid = -1;
    std::string text;
  };
  const PoolItem& Pool(int64_t index) const;
  void OnHistoryItem(std::string_view item);
  bool OnEvent(std::string_view prefix, std::string_view key, std::string_view value);
  bool OnState(std::string_view prefix, std::string_view key, std::string_view value);
  bool OnBatteryCounter(std::string_view prefix, std::string_view key, std::string_view value);
  bool OnWakeLock(std::string_view prefix, std::string_view key, std::string_view value);
  void PushCounter(std::string_view name, std::string_view type, double value,
                   const std::vector<std::pair<std::string_view, std::string_view>>& dims);

  TraceStorage* storage_;
  EventSorter* sorter_;
  std::vector<PoolItem> pool_;
  uint32_t version_ = 0;
  int64_t now_ms_ = 0;  // REALTIME, ms
};

}  // namespace tw
