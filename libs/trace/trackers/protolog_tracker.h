#pragma once
// Builds the protolog table: each ProtoLog message formatted with its viewer-config format
// (%d %o %x from integer parameters, %f %e %g from doubles, %b from booleans, %s from strings,
// %% a percent sign), level and group tag. A message id several formats share is resolved by
// which format's parameter types match the message's parameters.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/protolog_events.h"

namespace tw {

struct TraceContext;

class ProtoLogTracker {
 public:
  explicit ProtoLogTracker(TraceContext* ctx) : ctx_(ctx) {}

  void OnEvent(int64_t ts, const ProtoLogData& e);

 private:
  struct TrackedFormat {
    int32_t level = 0;
    uint32_t group_id = 0;
    std::string message;
    std::optional<std::string> location;
    std::string signature;  // parameter kinds in order: i(nteger) d(ouble) b(ool) s(tring)
  };
  struct Decoded {
    int32_t level = 0;
    std::string tag;
    std::string message;
    std::optional<std::string> location;
  };

  void OnViewerConfig(const ProtoLogData& e);
  void OnMessage(int64_t ts, const ProtoLogData& e);
  std::optional<Decoded> Decode(const ProtoLogData& e);
  std::string Format(const std::string& format, const ProtoLogData& e);
  std::string GroupTag(uint32_t group_id);
  static std::string Signature(const std::string& format);
  static bool Matches(const std::string& signature, const ProtoLogData& e);

  TraceContext* ctx_;
  absl::flat_hash_map<uint32_t, std::string> groups_;          // group id → tag
  absl::flat_hash_map<uint64_t, std::vector<TrackedFormat>> formats_;  // message id → formats
};

}  // namespace tw
