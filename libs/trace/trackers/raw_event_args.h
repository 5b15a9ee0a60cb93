#pragma once
// Reading fields of a generically decoded ftrace event (FtraceRawData) by name, for the trackers
// that give particular ftrace events meaning (v4l2, virtio, GPU memory, ...).

#include <cstdint>
#include <optional>
#include <string_view>

#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// The integer field `key` (int, uint or bool) of `raw`; nullopt when absent.
inline std::optional<int64_t> RawIntArg(const FtraceRawData& raw, StringId key) {
  for (const Arg& a : raw.args) {
    if (a.key != key) continue;
    if (a.value.type == ArgValue::Type::kInt || a.value.type == ArgValue::Type::kUint ||
        a.value.type == ArgValue::Type::kBool) {
      return a.value.int_value;
    }
  }
  return std::nullopt;
}

// The string field `key` of `raw`; empty when absent.
inline std::string_view RawStringArg(const TraceStorage& storage, const FtraceRawData& raw,
                                     StringId key) {
  for (const Arg& a : raw.args) {
    if (a.key == key && a.value.type == ArgValue::Type::kString) {
      return storage.Str(a.value.string_value);
    }
  }
  return {};
}

}  // namespace tw
