#pragma once
// Time a CPU spends in the pKVM hypervisor, as trace_processor shows it: each hyp_enter ..
// hyp_exit pair (or their hypervisor_* spellings) is a slice "hyp" (category "pkvm_hyp") on the
// CPU's "pkVM Hypervisor CPU <n>" track (type pkvm_hypervisor). The event that says why the CPU
// entered (host_hcall, host_smc, host_mem_abort, host_ffa_call, iommu_idmap, psci_mem_protect,
// iommu_idmap_complete, vcpu_illegal_trap) adds to the open slice an arg hyp_enter_reason and
// its fields. The stdlib's pkvm.hypervisor reads these slices.

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class PkvmHypervisorTracker {
 public:
  explicit PkvmHypervisorTracker(TraceContext* ctx);

  // Handles `raw` if it is a hypervisor event (its raw row is stored by the caller).
  void OnFtraceEvent(int64_t ts, const FtraceRawData& raw);

 private:
  // One reason event: the reason it records and the fields copied into the slice's args.
  // How trace_processor stores a field: as its proto type says (uint / int32), except
  // iommu_idmap_complete's map, a boolean.
  enum class Kind : uint8_t { kUint, kInt, kBool };
  struct Field {
    StringId key;
    Kind kind;
  };
  struct Reason {
    StringId reason;
    std::vector<Field> fields;
  };
  void AddReason(const std::vector<const char*>& event_names, const char* reason,
                 const std::vector<std::pair<const char*, Kind>>& fields);
  uint32_t Track(uint32_t cpu);

  TraceContext* ctx_;
  TraceStorage* storage_;
  StringId enter_, enter_alias_, exit_, exit_alias_, category_, slice_name_, reason_key_;
  absl::flat_hash_map<StringId, Reason> reasons_;  // by event name
  std::vector<uint32_t> tracks_;                   // by cpu; UINT32_MAX until interned
};

}  // namespace tw
