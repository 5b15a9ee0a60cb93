#pragma once
// Rows of legacy V8 CPU profiles (V8CpuProfileData, checked by the JSON importer): each profile
// gets a placeholder mapping; its nodes become frames (one per function name and script, per
// profile) and callsites (shared when parent, frame and depth agree); samples become
// cpu_profile_stack_sample rows on the sampled thread, which they create if needed.

#include <cstdint>
#include <optional>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"

namespace tw {

struct TraceContext;

class V8CpuProfileTracker {
 public:
  explicit V8CpuProfileTracker(TraceContext* ctx) : ctx_(ctx) {}

  void OnEvent(int64_t ts, const V8CpuProfileData& data);

 private:
  struct Profile {
    uint32_t mapping = 0;
    absl::flat_hash_map<std::pair<StringId, StringId>, uint32_t> frames;  // (name, url) → id
    absl::flat_hash_map<uint32_t, uint32_t> callsites;                    // node → callsite
  };
  Profile& ProfileFor(uint64_t session, uint32_t pid);
  uint32_t Frame(Profile& p, StringId name, StringId url);
  uint32_t Callsite(std::optional<uint32_t> parent, uint32_t frame, uint32_t depth);
  void OnNodes(const V8CpuProfileData& data);
  void OnSample(int64_t ts, const V8CpuProfileData& data);

  TraceContext* ctx_;
  absl::flat_hash_map<std::pair<uint64_t, uint32_t>, Profile> profiles_;
  // (parent or -1, frame, depth) → callsite.
  absl::flat_hash_map<std::tuple<int64_t, uint32_t, uint32_t>, uint32_t> callsite_ids_;
  StringId empty_ = kNullStringId;
};

}  // namespace tw
