#pragma once
// Decodes the generic kernel data source's packets — generic_kernel_task_state_event,
// generic_kernel_task_rename_event, generic_kernel_process_tree and
// generic_kernel_cpu_freq_event — into events. What a task state means for sched slices and
// thread states depends on the events around it, so it is left to GenericKernelTracker; CPU
// frequency becomes the same cpufreq counter ftrace's cpu_frequency feeds.

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class GenericKernelDecoder {
 public:
  explicit GenericKernelDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void DecodeTaskState(const PacketContext& packet, const proto::Field& field);
  void DecodeTaskRename(const PacketContext& packet, const proto::Field& field);
  void DecodeProcessTree(const PacketContext& packet, const proto::Field& field);
  void DecodeCpuFrequency(const PacketContext& packet, const proto::Field& field);

 private:
  void Push(const PacketContext& packet, Event e);

  ImportContext* ctx_;
};

}  // namespace tw
