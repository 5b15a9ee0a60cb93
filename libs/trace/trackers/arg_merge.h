#pragma once
// Merging args into one set the way trace_processor's args inserter does: a key appears once;
// a later value replaces the earlier one in place (so the set keeps first-insertion order),
// unless the later arg only fills a gap ("skip if exists"). Used when an end event adds args to
// the slice its begin event opened.

#include <vector>

#include "libs/trace/events/events.h"

namespace tw {

inline void AddOrUpdateArg(std::vector<Arg>* set, const Arg& arg) {
  for (Arg& a : *set) {
    if (a.key == arg.key) {
      a.flat_key = arg.flat_key;
      a.value = arg.value;
      return;
    }
  }
  set->push_back(arg);
}

inline void AddArgIfMissing(std::vector<Arg>* set, const Arg& arg) {
  for (const Arg& a : *set) {
    if (a.key == arg.key) return;
  }
  set->push_back(arg);
}

// Merges `args` into `set`; args whose key is `skip_if_exists_key` never replace a value.
inline void MergeArgs(std::vector<Arg>* set, const std::vector<Arg>& args,
                      StringId skip_if_exists_key = kNullStringId) {
  for (const Arg& a : args) {
    if (a.key == skip_if_exists_key && skip_if_exists_key != kNullStringId) {
      AddArgIfMissing(set, a);
    } else {
      AddOrUpdateArg(set, a);
    }
  }
}

}  // namespace tw
