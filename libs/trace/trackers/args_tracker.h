#pragma once
// Stores argument sets in the `args` table. Identical sets are stored once and share an
// arg_set_id (as in trace_processor), which keeps repetitive args (ftrace fields, track-event
// debug annotations) cheap. Rows of one set are contiguous, and a set's id is the id of its
// first row (trace_processor's numbering), so ids grow with the table; inside the tracker sets
// are also numbered 0, 1, 2, … in the order they were added (their ordinal), which indexes the
// per-set vectors below.
// AddArgSet runs once per ftrace event on the import's hot path: it hashes the set with a
// cheap multiply-mix, finds a stored set with one probe of a hash → set id index, and allocates
// nothing per set. The index is the only per-set state: a set's rows, size and id are read
// back from the args table itself (its rows are contiguous and carry their arg_set_id), because
// on a trace with millions of distinct sets every extra per-set vector costs tens of MiB at
// the import's peak. Sets sharing an index hash (rare) are chained through a small side map.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

class ArgsTracker {
 public:
  explicit ArgsTracker(TraceStorage* storage);
  // For tests: keeps only the low `index_bits` of the index hash, so distinct sets share an
  // index hash often and the chain of sets sharing one is exercised.
  ArgsTracker(TraceStorage* storage, int index_bits);

  // Returns the id of the set holding exactly `args` (in order), adding it if new;
  // nullopt for an empty set. Hot callers pass a stack array.
  std::optional<uint32_t> AddArgSet(absl::Span<const Arg> args);

  // Number of distinct sets stored.
  uint32_t set_count() const { return set_count_; }

  // Helpers to build args with interned keys.
  Arg MakeArg(std::string_view key, ArgValue value);
  Arg MakeArg(std::string_view flat_key, std::string_view key, ArgValue value);

  // The args of an existing set (for merging end-event args into a begin-event set).
  std::vector<Arg> GetArgSet(uint32_t arg_set_id) const;

 private:
  TraceStorage* storage_;
  // Whether the stored set `arg_set_id` holds exactly `args`.
  bool Matches(uint32_t arg_set_id, absl::Span<const Arg> args) const;
  // Appends a new set's rows; its arg_set_id is the id of its first row.
  void AppendRows(absl::Span<const Arg> args);

  struct IndexEntry {
    uint32_t arg_set_id;  // the newest set with this index hash
    uint32_t check;       // that set's check hash
  };
  absl::flat_hash_map<uint64_t, IndexEntry> newest_by_hash_;
  // arg_set_id → the next older set with the same index hash; only sets that displaced another
  // from newest_by_hash_ have an entry.
  absl::flat_hash_map<uint32_t, uint32_t> older_same_hash_;
  uint32_t set_count_ = 0;
  uint64_t index_mask_ = ~uint64_t{0};
  StringId type_names_[8];
};

}  // namespace tw
