#pragma once
// Enum value names learnt from the trace itself: ExtensionDescriptor packets (TracePacket field
// 72) carry FileDescriptorSets describing the extensions producers use, and decoders of those
// extensions name enum values with them (as trace_processor's descriptor pool does). Only enums
// declared at file level or directly inside a file-level message are recorded.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/importers/proto/proto_decoder.h"

namespace tw {

class ProtoEnumNames {
 public:
  // Records the enums of an ExtensionDescriptor message. Returns false if it is malformed.
  bool AddExtensionDescriptor(const proto::Field& descriptor);

  // The name of `value` in the enum with fully qualified name `enum_name` (".pkg.Enum").
  std::optional<std::string_view> Find(std::string_view enum_name, int32_t value) const;

 private:
  bool AddFile(const proto::Field& file);
  bool AddEnum(const std::string& scope, const proto::Field& enum_type);

  absl::flat_hash_map<std::string, absl::flat_hash_map<int32_t, std::string>> enums_;
};

}  // namespace tw
