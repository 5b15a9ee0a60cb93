#pragma once
// cpu_info packets describe the cpus once per trace: processor name, available frequencies,
// capacity, ARM identifier and feature bits. They fill the `cpu` table (row i is cpu i, as the
// sched tracker lays it out) and `cpu_freq`, directly: the data is descriptive, not timed.
// Cluster ids follow trace_processor: cpus ranked by capacity when every cpu has one, else by
// maximum frequency; equal values share a cluster.

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class CpuInfoDecoder {
 public:
  explicit CpuInfoDecoder(ImportContext* ctx) : ctx_(ctx) {}

  // Without a sink the cpu rows get no arg_set_id (ARM identifier, cpu_features.*).
  void set_arg_set_sink(ArgSetSink sink) { add_arg_set_ = std::move(sink); }

  void Decode(const proto::Field& field);

 private:
  struct Cpu {
    uint32_t cpu = 0;
    std::string_view processor;
    std::vector<uint32_t> frequencies;
    std::optional<uint32_t> capacity;
    uint64_t features = 0;
    bool has_arm_identifier = false;
    uint32_t arm[5] = {};  // implementer, architecture, variant, part, revision
  };
  static Cpu DecodeCpu(uint32_t index, const proto::Field& f);
  static std::vector<uint32_t> ClusterIds(const std::vector<Cpu>& cpus);
  std::vector<Arg> CpuArgs(const Cpu& cpu);

  ImportContext* ctx_;
  ArgSetSink add_arg_set_;
};

}  // namespace tw
