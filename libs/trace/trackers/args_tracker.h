#pragma once
// Stores argument sets in the `args` table. Identical sets are stored once and share an
// arg_set_id (as in trace_processor), which keeps repetitive args (ftrace fields, track-event
// debug annotations) cheap. Rows of one set are contiguous, and a set's id is the id of its
// first row (trace_processor's numbering), so ids grow with the table.
// AddArgSet runs once per ftrace event on the import's hot path: it hashes the set with a
// cheap multiply-mix and finds a stored set with one probe of a hash → set id index
// (arg_set_index.h), allocating nothing per set. The index is the only per-set state: a set's
// rows, size and id are read back from the args table itself (its rows are contiguous and carry
// their arg_set_id), because on a trace with millions of distinct sets every extra per-set
// byte costs MiBs at the import's peak.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"
#include "libs/trace/trackers/arg_set_index.h"

namespace tw {

class ArgsTracker {
 public:
  explicit ArgsTracker(TraceStorage* storage);
  // For tests: keeps only the low `index_bits` of the index hash, so distinct sets share an
  // index hash (and a shard and bucket of the index) often.
  ArgsTracker(TraceStorage* storage, int index_bits);

  // Returns the id of the set holding exactly `args` (in order), adding it if new;
  // nullopt for an empty set. Hot callers pass a stack array.
  std::optional<uint32_t> AddArgSet(absl::Span<const Arg> args);

  // Two independent hashes of a set: `index` keys the lookup, `check` confirms a hit.
  struct SetHash {
    uint64_t index;
    uint32_t check;
  };
  // For hot callers that know a set before they need its id: PrepareArgSet hashes the set and
  // starts loading its index bucket; AddPreparedArgSet (the same args, still alive) then does
  // what AddArgSet does, with the bucket's cache miss overlapped by the caller's work between.
  SetHash PrepareArgSet(absl::Span<const Arg> args);
  std::optional<uint32_t> AddPreparedArgSet(absl::Span<const Arg> args, SetHash hash);

  // Number of distinct sets stored.
  uint32_t set_count() const { return set_count_; }

  // Helpers to build args with interned keys.
  Arg MakeArg(std::string_view key, ArgValue value);
  Arg MakeArg(std::string_view flat_key, std::string_view key, ArgValue value);

  // The args of an existing set (for merging end-event args into a begin-event set).
  std::vector<Arg> GetArgSet(uint32_t arg_set_id) const;

 private:
  TraceStorage* storage_;
  // Appends a new set's rows; its arg_set_id is the id of its first row.
  void AppendRows(absl::Span<const Arg> args);

  ArgSetIndex index_;
  uint32_t set_count_ = 0;
  uint64_t index_mask_ = ~uint64_t{0};
  StringId type_names_[8];
};

}  // namespace tw
