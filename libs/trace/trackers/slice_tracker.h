#pragma once
// Builds the `slice` table: per track, a stack of open slices gives each new slice its depth and
// parent. Begin/End pairs, complete events (known duration) and instants all go through here;
// slices still open when the trace ends keep dur = -1, as in trace_processor.
// A begun slice's args are written once, when it ends (with what its end and AddArgs added)
// or at Finish(): like trace_processor, the args table then holds only each slice's final set,
// not the intermediate ones.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/events/translation_tables.h"
#include "libs/trace/storage/trace_storage.h"
#include "libs/trace/trackers/args_tracker.h"

namespace tw {

class SliceTracker {
 public:
  SliceTracker(TraceStorage* storage, ArgsTracker* args);

  struct ThreadTime {
    std::optional<int64_t> ts;
    std::optional<int64_t> instruction_count;
  };

  std::optional<uint32_t> Begin(int64_t ts, uint32_t track, StringId category, StringId name,
                                const std::vector<Arg>& args, ThreadTime thread_time = {});
  // Android's legacy atrace async begin ('S'): slices on `track` never nest. A begin while a
  // slice is open starts nothing; every begin is counted, and the slice, when it ends, gets
  // args legacy_unnestable_begin_count and legacy_unnestable_last_begin_ts (the track's
  // totals so far), as in trace_processor.
  std::optional<uint32_t> BeginLegacyUnnestable(int64_t ts, uint32_t track, StringId name,
                                                const std::vector<Arg>& args);
  // Ends the innermost open slice on `track` (matching `name`/`category` when given).
  std::optional<uint32_t> End(int64_t ts, uint32_t track, StringId category, StringId name,
                              const std::vector<Arg>& args, ThreadTime thread_time = {});
  std::optional<uint32_t> Scoped(int64_t ts, uint32_t track, StringId category, StringId name,
                                 int64_t dur, const std::vector<Arg>& args,
                                 ThreadTime thread_time = {},
                                 std::optional<int64_t> thread_dur = std::nullopt);
  std::optional<uint32_t> Instant(int64_t ts, uint32_t track, StringId category, StringId name,
                                  const std::vector<Arg>& args) {
    return Scoped(ts, track, category, name, 0, args);
  }
  // Adds args to a slice already stored; a key it already has takes the new value.
  void AddArgs(uint32_t slice_id, const std::vector<Arg>& args);
  // Writes the args of slices begun but never ended. Called once, after the last event.
  void Finish();

  // A complete slice [ts, ts + dur) that partially overlaps a complete slice still on the
  // track's stack (starting inside it, ending after it) cannot nest there. What it shares with
  // that slice, [start, end), and which slice that is.
  struct Overlap {
    int64_t start = 0;
    int64_t end = 0;
    StringId conflicting_name = kNullStringId;
    int64_t conflicting_ts = 0;
    int64_t conflicting_dur = 0;
  };
  // The overlap the slice would have on `track`, if any. Closes what has ended by `ts` first,
  // as adding the slice would.
  std::optional<Overlap> FindOverlap(int64_t ts, uint32_t track, int64_t dur);
  // The overlap as args (overlap_start, overlap_end, conflicting_slice_name / _ts / _dur), as
  // trace_processor logs it.
  std::vector<Arg> OverlapArgs(const Overlap& overlap);

  // The innermost open slice on `track`, if any (flows attach to it).
  std::optional<uint32_t> GetTopmostSliceOnTrack(uint32_t track) const;
  // The innermost slice on `track` still open (not ended) that End would match with
  // `category`/`name`: how trace_processor finds the slice to add args to after the fact
  // (binder's destination, buffer sizes). Nothing is closed first.
  std::optional<uint32_t> FindOpenSlice(uint32_t track, StringId category, StringId name) const;
  // Whether `track` has ever had a slice (used to pick fallback tracks).
  size_t OpenDepth(uint32_t track) const;

  // The trace's TranslationTables (the proto importer fills them before any event is routed):
  // slice names are stored translated, and arg sets written through here or AddArgSet get the
  // translated values beside the hashes they translate.
  TranslationTables& translations() { return translations_; }
  // Stores a slice's arg set (translated), for trackers that gather a slice's args themselves.
  std::optional<uint32_t> AddArgSet(std::vector<Arg> args);

 private:
  struct Open {
    uint32_t row;
    int64_t end_ts;  // -1: open until an End
  };
  // `new_dur`: of the slice about to be added (-1 for a Begin or an End).
  void MaybeCloseStack(int64_t ts, int64_t new_dur, std::vector<Open>* stack);
  // The stack index of the innermost open slice matching `category`/`name` (kNullStringId
  // matches any; a slice without a name matches any name).
  std::optional<size_t> MatchingOpenSlice(const std::vector<Open>& stack, StringId category,
                                          StringId name) const;
  uint32_t Insert(int64_t ts, int64_t dur, uint32_t track, StringId category, StringId name,
                  std::vector<Open>* stack, const std::vector<Arg>& args, ThreadTime tt,
                  bool defer_args);
  void CommitArgs(uint32_t slice_id);
  // Writes `args` merged into the slice's stored set (if any) as its arg set.
  void StoreArgs(uint32_t slice_id, const std::vector<Arg>& args);

  struct Unnestable {
    int64_t begin_count = 0;
    int64_t last_begin_ts = 0;
  };

  // Adds, after each hash the tables translate, its translation (replacing an arg of that key).
  void TranslateArgs(std::vector<Arg>* args);

  TraceStorage* storage_;
  ArgsTracker* args_;
  TranslationTables translations_;
  absl::flat_hash_map<uint32_t, std::vector<Open>> stacks_;
  absl::flat_hash_map<uint32_t, Unnestable> unnestable_;  // by track
  absl::flat_hash_map<uint32_t, std::vector<Arg>> pending_args_;  // by slice, until it ends
};

}  // namespace tw
