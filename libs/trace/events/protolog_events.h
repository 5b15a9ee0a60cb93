#pragma once
// Payloads of ProtoLog (Android's binary logging of WindowManager / Shell): the viewer
// configuration (message formats, levels, groups; pushed before any message in time) and the
// messages themselves with their parameters, interned strings already resolved.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libs/trace/storage/string_pool.h"

namespace tw {

struct ProtoLogData {
  enum class Kind : uint8_t { kViewerConfig, kMessage };
  Kind kind = Kind::kMessage;

  // ---- kViewerConfig ----
  struct Group {
    uint32_t id = 0;
    std::string tag;
  };
  struct MessageFormat {
    uint64_t message_id = 0;
    int32_t level = 0;  // ProtoLogLevel
    uint32_t group_id = 0;
    std::string message;
    std::optional<std::string> location;
  };
  std::vector<Group> groups;
  std::vector<MessageFormat> formats;

  // ---- kMessage ----
  uint64_t message_id = 0;
  std::vector<int64_t> sint64_params;
  std::vector<double> double_params;
  std::vector<bool> boolean_params;
  std::vector<std::string> string_params;
  StringId stacktrace = kNullStringId;
  bool has_stacktrace = false;
};

}  // namespace tw
