#include "libs/trace/trackers/pkvm_hypervisor_tracker.h"

#include <limits>
#include <string>
#include <utility>

#include "libs/trace/trackers/raw_event_args.h"

namespace tw {

PkvmHypervisorTracker::PkvmHypervisorTracker(TraceContext* ctx)
    : ctx_(ctx),
      storage_(ctx->storage),
      enter_(storage_->Intern("hyp_enter")),
      enter_alias_(storage_->Intern("hypervisor_hyp_enter")),
      exit_(storage_->Intern("hyp_exit")),
      exit_alias_(storage_->Intern("hypervisor_hyp_exit")),
      category_(storage_->Intern("pkvm_hyp")),
      slice_name_(storage_->Intern("hyp")),
      reason_key_(storage_->Intern("hyp_enter_reason")) {
  // The fields trace_processor keeps for each reason (the ffa call's result registers are not).
  constexpr Kind kU = Kind::kUint, kI = Kind::kInt;
  AddReason({"host_hcall", "hypervisor_host_hcall"}, "host_hcall", {{"id", kU}, {"invalid", kU}});
  AddReason({"host_smc", "hypervisor_host_smc"}, "host_smc", {{"id", kU}, {"forwarded", kU}});
  AddReason({"host_mem_abort", "hypervisor_host_mem_abort"}, "host_mem_abort",
            {{"esr", kU}, {"addr", kU}});
  AddReason({"host_ffa_call"}, "host_ffa_call", {{"func_id", kU}, {"handled", kI}, {"err", kI}});
  AddReason({"iommu_idmap", "hypervisor_iommu_idmap"}, "iommu_idmap",
            {{"from", kU}, {"to", kU}, {"prot", kI}});
  AddReason({"psci_mem_protect", "hypervisor_psci_mem_protect"}, "psci_mem_protect",
            {{"count", kU}, {"was", kU}});
  AddReason({"hypervisor_iommu_idmap_complete"}, "iommu_idmap_complete", {{"map", Kind::kBool}});
  AddReason({"hypervisor_vcpu_illegal_trap"}, "vcpu_illegal_trap", {{"esr", kU}});
}

void PkvmHypervisorTracker::AddReason(const std::vector<const char*>& event_names,
                                      const char* reason,
                                      const std::vector<std::pair<const char*, Kind>>& fields) {
  Reason r{storage_->Intern(reason), {}};
  for (const auto& [name, kind] : fields) r.fields.push_back({storage_->Intern(name), kind});
  for (const char* name : event_names) reasons_[storage_->Intern(name)] = r;
}

uint32_t PkvmHypervisorTracker::Track(uint32_t cpu) {
  if (cpu >= tracks_.size()) tracks_.resize(cpu + 1, std::numeric_limits<uint32_t>::max());
  if (tracks_[cpu] == std::numeric_limits<uint32_t>::max()) {
    tracks_[cpu] = ctx_->tracks.InternCpuTrack(
        cpu, storage_->Intern("pkVM Hypervisor CPU " + std::to_string(cpu)), "pkvm_hypervisor");
  }
  return tracks_[cpu];
}

void PkvmHypervisorTracker::OnFtraceEvent(int64_t ts, const FtraceRawData& raw) {
  if (raw.name == enter_ || raw.name == enter_alias_) {
    ctx_->slices.Begin(ts, Track(raw.cpu), category_, slice_name_, {});
    return;
  }
  if (raw.name == exit_ || raw.name == exit_alias_) {
    ctx_->slices.End(ts, Track(raw.cpu), kNullStringId, kNullStringId, {});
    return;
  }
  auto it = reasons_.find(raw.name);
  if (it == reasons_.end()) return;
  // The reason belongs to the CPU's open hypervisor slice; without one there is nothing to
  // describe.
  const auto slice = ctx_->slices.FindOpenSlice(Track(raw.cpu), category_, slice_name_);
  if (!slice) return;
  std::vector<Arg> args = {Arg{reason_key_, reason_key_, ArgValue::String(it->second.reason)}};
  for (const Field& f : it->second.fields) {
    // A field the event leaves out is zero on the wire.
    const int64_t v = RawIntArg(raw, f.key).value_or(0);
    const ArgValue value = f.kind == Kind::kInt    ? ArgValue::Int(v)
                           : f.kind == Kind::kBool ? ArgValue::Bool(v != 0)
                                                   : ArgValue::Uint(static_cast<uint64_t>(v));
    args.push_back(Arg{f.key, f.key, value});
  }
  ctx_->slices.AddArgs(*slice, args);
}

}  // namespace tw
