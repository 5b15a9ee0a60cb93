#pragma once
// Stores argument sets in the `args` table. Identical sets are stored once and share an
// arg_set_id (as in trace_processor), which keeps repetitive args (ftrace fields, track-event
// debug annotations) cheap. Rows of one set are contiguous, and a set's id is the id of its
// first row (trace_processor's numbering), so ids grow with the table; inside the tracker sets
// are also numbered 0, 1, 2, … in the order they were added (their ordinal), which indexes the
// per-set vectors below.
// AddArgSet runs once per ftrace event on the import's hot path: it hashes the set with a
// cheap multiply-mix, finds a stored set with one probe of a hash → set id index, and allocates
// nothing per set (sets sharing an index hash are chained through a vector).

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

  // Returns the id of the set holding exactly `args` (in order), adding it if new;
  // nullopt for an empty set. Hot callers pass a stack array.
  std::optional<uint32_t> AddArgSet(absl::Span<const Arg> args);

  // Number of distinct sets stored.
  uint32_t set_count() const { return static_cast<uint32_t>(set_first_row_.size()); }

  // Helpers to build args with interned keys.
  Arg MakeArg(std::string_view key, ArgValue value);
  Arg MakeArg(std::string_view flat_key, std::string_view key, ArgValue value);

  // The args of an existing set (for merging end-event args into a begin-event set).
  std::vector<Arg> GetArgSet(uint32_t arg_set_id) const;

 private:
  TraceStorage* storage_;
  // Whether the stored set with ordinal `ordinal` holds exactly `args`.
  bool Matches(uint32_t ordinal, absl::Span<const Arg> args) const;
  // Appends a new set's rows; returns its arg_set_id (the id of its first row).
  uint32_t AppendRows(absl::Span<const Arg> args);

  struct IndexEntry {
    uint32_t ordinal;  // the newest set with this index hash
    uint32_t check;    // that set's check hash
  };
  absl::flat_hash_map<uint64_t, IndexEntry> newest_by_hash_;
  std::vector<uint32_t> older_same_hash_;  // ordinal → previous ordinal with its hash, or none
  std::vector<uint32_t> set_first_row_;    // ordinal → first row in args (= its arg_set_id)
  std::vector<uint32_t> set_size_;
  StringId type_names_[8];
};

}  // namespace tw
