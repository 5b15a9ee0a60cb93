#include "libs/trace/importers/proto/cpu_info_decoder.h"

#include <algorithm>
#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/repeated_varints.h"

namespace tw {
namespace {

// Feature bits of CpuInfo.Cpu.features that have a name (bit i ↔ kCpuFeatures[i]); higher bits
// are only visible in cpu_features.raw_bitmap.
constexpr const char* kCpuFeatures[] = {"mte", "mte3"};
constexpr size_t kNumCpuFeatures = sizeof(kCpuFeatures) / sizeof(kCpuFeatures[0]);

constexpr const char* kArmKeys[] = {"arm_cpu_implementer", "arm_cpu_architecture",
                                    "arm_cpu_variant", "arm_cpu_part", "arm_cpu_revision"};

}  // namespace

CpuInfoDecoder::Cpu CpuInfoDecoder::DecodeCpu(uint32_t index, const proto::Field& f) {
  namespace c = pf::cpu_info_cpu;
  Cpu cpu;
  cpu.cpu = index;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case c::kProcessor: cpu.processor = x.as_string(); break;
      case c::kFrequencies:
        proto::ForEachVarint(x, [&](uint64_t v) {
          cpu.frequencies.push_back(static_cast<uint32_t>(v));
        });
        break;
      case c::kCapacity: cpu.capacity = x.as_uint32(); break;
      case c::kFeatures: cpu.features = x.as_uint64(); break;
      case c::kArmIdentifier: {
        cpu.has_arm_identifier = true;
        proto::Decoder ad(x);
        proto::Field a;
        while (ad.Next(&a)) {
          // ArmCpuIdentifier fields 1..5 are implementer .. revision.
          if (a.id >= 1 && a.id <= 5) cpu.arm[a.id - 1] = a.as_uint32();
        }
        break;
      }
      default: break;
    }
  }
  return cpu;
}

std::vector<uint32_t> CpuInfoDecoder::ClusterIds(const std::vector<Cpu>& cpus) {
  std::vector<uint32_t> cluster(cpus.size(), 0);
  const bool all_capacities =
      std::all_of(cpus.begin(), cpus.end(), [](const Cpu& c) { return c.capacity.has_value(); });
  const bool all_frequencies = std::all_of(
      cpus.begin(), cpus.end(), [](const Cpu& c) { return !c.frequencies.empty(); });
  if (!all_capacities && !all_frequencies) return cluster;
  // Rank cpus by the metric; each strictly larger value starts a new cluster.
  std::vector<std::pair<uint32_t, uint32_t>> ranked;  // (metric, cpu)
  for (const Cpu& c : cpus) {
    const uint32_t metric = all_capacities
                                ? *c.capacity
                                : *std::max_element(c.frequencies.begin(), c.frequencies.end());
    ranked.emplace_back(metric, c.cpu);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  uint32_t id = 0;
  for (size_t i = 0; i < ranked.size(); ++i) {
    if (i > 0 && ranked[i].first > ranked[i - 1].first) ++id;
    cluster[ranked[i].second] = id;
  }
  return cluster;
}

std::vector<Arg> CpuInfoDecoder::CpuArgs(const Cpu& cpu) {
  std::vector<Arg> args;
  auto add = [&](std::string_view key, ArgValue v) {
    const StringId k = ctx_->Intern(key);
    args.push_back(Arg{k, k, v});
  };
  if (cpu.has_arm_identifier) {
    for (int i = 0; i < 5; ++i) add(kArmKeys[i], ArgValue::Uint(cpu.arm[i]));
  }
  for (size_t i = 0; i < kNumCpuFeatures; ++i) {
    if (cpu.features & (uint64_t{1} << i)) {
      add(std::string("cpu_features.") + kCpuFeatures[i], ArgValue::Bool(true));
    }
  }
  if (cpu.features != 0) add("cpu_features.raw_bitmap", ArgValue::Uint(cpu.features));
  return args;
}

void CpuInfoDecoder::Decode(const proto::Field& field) {
  TraceStorage& s = *ctx_->storage;
  std::vector<Cpu> cpus;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == pf::cpu_info::kCpus && f.type == proto::kLengthDelimited) {
      cpus.push_back(DecodeCpu(static_cast<uint32_t>(cpus.size()), f));
    }
  }
  if (d.error()) s.IncrementStat("proto_decode_errors");
  if (cpus.empty()) {
    s.IncrementStat("cpu_info_empty");
    return;
  }
  const std::vector<uint32_t> cluster = ClusterIds(cpus);
  CpuTable& table = s.cpu;
  for (const Cpu& cpu : cpus) {
    // Row i is cpu i (ucpu == cpu on a single machine), as the sched tracker creates them.
    while (table.row_count() <= cpu.cpu) table.Insert({.cpu = table.row_count()});
    const uint32_t ucpu = cpu.cpu;
    table.cluster_id.Set(ucpu, cluster[cpu.cpu]);
    // An absent processor field stays NULL (the view's data() is null only then).
    table.processor.Set(ucpu, cpu.processor.data() ? s.Intern(cpu.processor) : kNullStringId);
    if (cpu.capacity) table.capacity.Set(ucpu, *cpu.capacity);
    for (uint32_t freq : cpu.frequencies) s.cpu_freq.Insert({.ucpu = ucpu, .freq = freq});
    if ((cpu.features >> kNumCpuFeatures) != 0) s.IncrementStat("cpu_info_unknown_cpu_features");
    const std::vector<Arg> args = CpuArgs(cpu);
    if (!args.empty() && add_arg_set_) {
      if (std::optional<uint32_t> set = add_arg_set_(args)) table.arg_set_id.Set(ucpu, *set);
    }
  }
}

}  // namespace tw
