#include "libs/trace/trackers/annotation_arrays.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

namespace tw {
namespace {

// Calls fn(prefix, index) for each "[index]" in `key`, prefix being the key before it.
template <typename Fn>
void ForEachIndex(std::string_view key, Fn fn) {
  for (size_t open = key.find('['); open != std::string_view::npos;
       open = key.find('[', open + 1)) {
    const size_t close = key.find(']', open);
    if (close == std::string_view::npos) return;
    const std::string digits(key.substr(open + 1, close - open - 1));
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), ::isdigit)) continue;
    fn(key.substr(0, open), std::strtoull(digits.c_str(), nullptr, 10), open, close);
  }
}

}  // namespace

void ContinueAnnotationArrays(const std::vector<Arg>& begin_args,
                              const std::vector<StringId>& end_array_keys,
                              TraceStorage* storage, std::vector<Arg>* end_args) {
  if (end_array_keys.empty()) return;
  // How many elements each array of the begin holds, by its key.
  absl::flat_hash_map<std::string, size_t> begin_sizes;
  for (const Arg& a : begin_args) {
    ForEachIndex(storage->Str(a.key), [&](std::string_view prefix, size_t index, size_t,
                                          size_t) {
      size_t& size = begin_sizes[std::string(prefix)];
      size = std::max(size, index + 1);
    });
  }
  if (begin_sizes.empty()) return;
  absl::flat_hash_set<std::string> arrays;
  for (StringId k : end_array_keys) arrays.insert(std::string(storage->Str(k)));

  for (Arg& a : *end_args) {
    const std::string key(storage->Str(a.key));
    // Rebuilt left to right: an inner array's key includes its outer element's new index.
    std::string renamed;
    size_t copied = 0;
    ForEachIndex(key, [&](std::string_view prefix, size_t index, size_t open, size_t close) {
      renamed.append(key, copied, open - copied);
      copied = close + 1;
      size_t base = 0;
      if (arrays.contains(std::string(prefix))) {
        auto it = begin_sizes.find(renamed);
        if (it != begin_sizes.end()) base = it->second;
      }
      renamed.append("[").append(std::to_string(base + index)).append("]");
    });
    if (copied == 0) continue;  // no index
    renamed.append(key, copied, std::string::npos);
    if (renamed != key) a.key = storage->Intern(renamed);
  }
}

}  // namespace tw
