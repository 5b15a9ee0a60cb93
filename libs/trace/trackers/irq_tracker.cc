#include "libs/trace/trackers/irq_tracker.h"

#include <iterator>
#include <string>

namespace tw {
namespace {

// The kernel's softirq vectors, in vector order (softirq_to_name).
constexpr const char* kSoftIrqNames[] = {"HI",      "TIMER", "NET_TX",  "NET_RX",  "BLOCK",
                                         "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"};

}  // namespace

IrqTracker::IrqTracker(TraceStorage* storage, TrackTracker* tracks, SliceTracker* slices)
    : storage_(storage), tracks_(tracks), slices_(slices), irq_category_(storage->Intern("irq")) {}

uint32_t IrqTracker::Track(uint32_t cpu, bool soft) {
  const std::string name = (soft ? "SoftIrq Cpu " : "Irq Cpu ") + std::to_string(cpu);
  return tracks_->InternCpuTrack(cpu, storage_->Intern(name), soft ? "cpu_softirq" : "cpu_irq");
}

void IrqTracker::OnEvent(const Event& e) {
  const IrqData& irq = e.irq;
  storage_->ExtendBounds(e.ts);
  switch (e.type) {
    case EventType::kIrqEnter: {
      const std::string name = "IRQ (" + std::string(storage_->Str(irq.name)) + ")";
      slices_->Begin(e.ts, Track(e.cpu, false), irq_category_, storage_->Intern(name), {});
      return;
    }
    case EventType::kIrqExit: {
      const StringId ret = storage_->Intern(irq.ret == 1 ? "handled" : "unhandled");
      const StringId key = storage_->Intern("ret");
      slices_->End(e.ts, Track(e.cpu, false), irq_category_, kNullStringId,
                   {Arg{key, key, ArgValue::String(ret)}});
      return;
    }
    case EventType::kSoftIrqEnter:
      if (irq.number < 0 || irq.number >= static_cast<int32_t>(std::size(kSoftIrqNames))) return;
      slices_->Begin(e.ts, Track(e.cpu, true), irq_category_,
                     storage_->Intern(kSoftIrqNames[irq.number]), {});
      return;
    case EventType::kSoftIrqExit: {
      const StringId key = storage_->Intern("vec");
      slices_->End(e.ts, Track(e.cpu, true), irq_category_, kNullStringId,
                   {Arg{key, key, ArgValue::Int(irq.number)}});
      return;
    }
    default:
      return;
  }
}

}  // namespace tw
