#pragma once
// GPUs, their counters' groups and the graphics contexts GPU work ran in.

#include "libs/trace/storage/table_declaration.h"

namespace tw {

// clang-format off
#define TW_GPU_TABLE(TABLE, COLUMN)                                                              \
  TABLE(GpuTable, gpu,                                                                           \
        "The GPUs of the machine (ugpu = id), numbered as the trace first mentions them and "    \
        "described by gpu_info packets when the trace has them.")                                \
  COLUMN(gpu, Uint32, kNone, {}, "The GPU's number as the trace gives it (gpu_id).")             \
  COLUMN(name, String, kNone, {}, "The GPU's name, if known.")                                   \
  COLUMN(vendor, String, kNone, {}, "The GPU's vendor, if known.")                               \
  COLUMN(model, String, kNone, {}, "The GPU's model, if known.")                                 \
  COLUMN(architecture, String, kNone, {}, "The GPU's architecture, if known.")                   \
  COLUMN(uuid, String, kNone, {}, "The GPU's UUID, if known.")                                   \
  COLUMN(pci_bdf, String, kNone, {}, "The GPU's PCI bus/device/function, if known.")             \
  COLUMN(machine_id, OptUint32, kNone, 0, "The machine (machine.id); 0 is the host.")            \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "Further facts about the GPU, as args.")
// clang-format on
TW_DEFINE_TABLE(TW_GPU_TABLE)

// clang-format off
#define TW_GPU_COUNTER_GROUP_TABLE(TABLE, COLUMN)                                                \
  TABLE(GpuCounterGroupTable, gpu_counter_group,                                                 \
        "Which groups (GpuCounterDescriptor's counter groups) each GPU counter track belongs "   \
        "to: one row per (group, track).")                                                       \
  COLUMN(group_id, Int64, kNone, {},                                                             \
         "The group: a GpuCounterGroup enum value (0 unclassified) or a descriptor's group id.") \
  COLUMN(track_id, Uint32, kNone, {}, "The GPU counter track (gpu_counter_track.id).")           \
  COLUMN(name, String, kNone, {}, "The group's name, when the descriptor names it.")             \
  COLUMN(description, String, kNone, {}, "The group's description, if any.")
// clang-format on
TW_DEFINE_TABLE(TW_GPU_COUNTER_GROUP_TABLE)

// clang-format off
#define TW_GPU_CONTEXT_TABLE(TABLE, COLUMN)                                                      \
  TABLE(GpuContextTable, gpu_context,                                                            \
        "One row per graphics context (GL context, VkDevice, CUDA context, ...) that render "    \
        "stage events name through interned InternedGraphicsContext data.")                      \
  COLUMN(context_id, Uint32, kNone, {}, "The graphics context handle.")                          \
  COLUMN(pid, OptUint32, kNone, {}, "The process that owns the context, if known.")              \
  COLUMN(api, String, kNone, {},                                                                 \
         "Its graphics API: OPEN_GL, VULKAN, OPEN_CL, CUDA, HIP or UNDEFINED, if known.")
// clang-format on
TW_DEFINE_TABLE(TW_GPU_CONTEXT_TABLE)

}  // namespace tw
