#pragma once
// Stores argument sets in the `args` table. Identical sets are stored once and share an
// arg_set_id (as in trace_processor), which keeps repetitive args (ftrace fields, track-event
// debug annotations) cheap. Rows of one set are contiguous, and a set's id is the id of its
// first row (trace_processor's numbering), so ids grow with the table and lookups are a binary
// search.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

class ArgsTracker {
 public:
  explicit ArgsTracker(TraceStorage* storage);

  // Returns the id of the set holding exactly `args` (in order), adding it if new;
  // nullopt for an empty set.
  std::optional<uint32_t> AddArgSet(const std::vector<Arg>& args);

  // Helpers to build args with interned keys.
  Arg MakeArg(std::string_view key, ArgValue value);
  Arg MakeArg(std::string_view flat_key, std::string_view key, ArgValue value);

  // The args of an existing set (for merging end-event args into a begin-event set).
  std::vector<Arg> GetArgSet(uint32_t arg_set_id) const;

 private:
  TraceStorage* storage_;
  absl::flat_hash_map<uint64_t, std::vector<uint32_t>> by_hash_;  // hash → candidate set ids
  // The number of rows of the set whose first row is `id`.
  uint32_t SetSize(uint32_t id) const;

  StringId type_names_[8];
};

}  // namespace tw
