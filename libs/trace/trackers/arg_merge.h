#pragma once
// Building one arg set the way trace_processor's args inserter does: a key appears once; a
// later value replaces the earlier one in place (so the set keeps first-insertion order),
// unless the later arg only fills a gap ("skip if exists"). Used for an event's own args and
// when an end event adds args to the slice its begin event opened.

#include <cstddef>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"

namespace tw {

class ArgSetBuilder {
 public:
  ArgSetBuilder() = default;
  explicit ArgSetBuilder(std::vector<Arg> initial) {
    for (const Arg& a : initial) AddOrUpdate(a);
  }

  void AddOrUpdate(const Arg& arg) {
    if (Arg* existing = Find(arg.key)) {
      existing->flat_key = arg.flat_key;
      existing->value = arg.value;
      return;
    }
    Append(arg);
  }
  void AddIfMissing(const Arg& arg) {
    if (!Find(arg.key)) Append(arg);
  }
  // Merges `args`; those whose key is `skip_if_exists_key` never replace a value.
  void Merge(const std::vector<Arg>& args, StringId skip_if_exists_key = kNullStringId) {
    for (const Arg& a : args) {
      if (skip_if_exists_key != kNullStringId && a.key == skip_if_exists_key) {
        AddIfMissing(a);
      } else {
        AddOrUpdate(a);
      }
    }
  }

  std::vector<Arg> Take() && { return std::move(args_); }
  const std::vector<Arg>& args() const { return args_; }

 private:
  // Small sets are scanned; big ones (long arrays in annotations) get an index so building
  // stays linear.
  static constexpr size_t kIndexThreshold = 32;

  Arg* Find(StringId key) {
    if (!index_.empty()) {
      auto it = index_.find(key);
      return it == index_.end() ? nullptr : &args_[it->second];
    }
    for (Arg& a : args_) {
      if (a.key == key) return &a;
    }
    return nullptr;
  }
  void Append(const Arg& arg) {
    args_.push_back(arg);
    if (!index_.empty()) {
      index_.emplace(arg.key, args_.size() - 1);
    } else if (args_.size() >= kIndexThreshold) {
      for (size_t i = 0; i < args_.size(); ++i) index_.emplace(args_[i].key, i);
    }
  }

  std::vector<Arg> args_;
  absl::flat_hash_map<StringId, size_t> index_;
};

}  // namespace tw
