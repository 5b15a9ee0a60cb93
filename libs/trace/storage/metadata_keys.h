#pragma once
// trace_processor's metadata keys: whether a key holds one value or several, and what it
// describes — the whole trace file, a machine, or a machine within a trace — which decides the
// metadata row's machine_id / trace_id.

#include <string_view>

namespace tw {

enum class MetadataScope : uint8_t { kGlobal, kTrace, kMachine, kMachineAndTrace };

struct MetadataKeyInfo {
  std::string_view name;
  bool multi;
  MetadataScope scope;
};

// Unknown keys (our own additions) are single-valued and trace-scoped.
MetadataKeyInfo LookupMetadataKey(std::string_view name);

}  // namespace tw
