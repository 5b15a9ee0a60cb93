#pragma once
// The order SQLite gives a TEXT column under the BINARY collation (NULL first, then by bytes),
// for interned strings: what a derived table must follow to come out in the order of the
// GROUP BY it replaces.

#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/storage/string_pool.h"

namespace tw {

// <0, 0 or >0 as `a` sorts before, with or after `b`; kNullStringId is NULL.
inline int CompareSqlText(const StringPool& strings, StringId a, StringId b) {
  if (a == b) return 0;
  if (a == kNullStringId) return -1;
  if (b == kNullStringId) return 1;
  return strings.Get(a).compare(strings.Get(b));  // char_traits<char> compares like memcmp
}

// Ranks of a set of strings in that order, so sorting many rows by a string column compares
// integers rather than text. NULL ranks 0.
class SqlTextRanks {
 public:
  SqlTextRanks(const StringPool& strings, std::vector<StringId> ids) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::sort(ids.begin(), ids.end(), [&](StringId a, StringId b) {
      return CompareSqlText(strings, a, b) < 0;
    });
    for (uint32_t i = 0; i < ids.size(); ++i) rank_[ids[i]] = i + 1;
    rank_[kNullStringId] = 0;
  }
  // The rank of `id`, which must be one of the ids given (or NULL).
  uint32_t Of(StringId id) const { return rank_.at(id); }

 private:
  absl::flat_hash_map<StringId, uint32_t> rank_;
};

}  // namespace tw
