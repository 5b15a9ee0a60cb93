#include "libs/trace/importers/proto/gpu_decoder.h"

#include <cstdio>
#include <string>

namespace tw {
namespace {

// Field numbers (wire-format facts of Perfetto's gpu protos).
namespace counter_event {  // GpuCounterEvent
constexpr uint32_t kCounterDescriptor = 1, kCounters = 2, kGpuId = 3, kCounterDescriptorIid = 4;
}
namespace counter {  // GpuCounterEvent.GpuCounter
constexpr uint32_t kCounterId = 1, kIntValue = 2, kDoubleValue = 3;
}
namespace interned_descriptor {  // InternedGpuCounterDescriptor
constexpr uint32_t kCounterDescriptor = 2, kGpuId = 3;
}
namespace descriptor {  // GpuCounterDescriptor
constexpr uint32_t kSpecs = 1, kCounterGroups = 6;
}
namespace spec {  // GpuCounterDescriptor.GpuCounterSpec
constexpr uint32_t kCounterId = 1, kName = 2, kDescription = 3, kNumeratorUnits = 7,
                   kDenominatorUnits = 8, kGroups = 10, kValueDirection = 11;
constexpr int64_t kForwardsLooking = 2;  // VALUE_DIRECTION_FORWARDS_LOOKING
}
namespace group_spec {  // GpuCounterDescriptor.GpuCounterGroupSpec
constexpr uint32_t kGroupId = 1, kName = 2, kDescription = 3, kCounterIds = 4;
}
namespace gpu_info {  // GpuInfo, GpuInfo.Gpu
constexpr uint32_t kGpus = 1;
constexpr uint32_t kName = 1, kVendor = 2, kModel = 3, kArchitecture = 4, kUuid = 5,
                   kExtraInfo = 6, kPciBdf = 7;
}
constexpr uint32_t kInternedGpuCounterDescriptors = 47;  // InternedData field

// GpuCounterDescriptor.MeasureUnit as trace_processor spells units.
const char* MeasureUnit(int64_t unit) {
  switch (unit) {
    case 0: return "";
    case 1: return "bit";
    case 2: return "Kb";
    case 3: return "Mb";
    case 4: return "Gb";
    case 5: return "Tb";
    case 6: return "Pb";
    case 7: return "B";
    case 8: return "KB";
    case 9: return "MB";
    case 10: return "GB";
    case 11: return "TB";
    case 12: return "PB";
    case 13: return "Hz";
    case 14: return "KHz";
    case 15: return "MHz";
    case 16: return "GHz";
    case 17: return "THz";
    case 18: return "PHz";
    case 19: return "ns";
    case 20: return "us";
    case 21: return "ms";
    case 22: return "s";
    case 23: return "min";
    case 24: return "h";
    case 25: return "Vertex";
    case 26: return "Pixel";
    case 27: return "Triangle";
    case 28: return "mW";
    case 29: return "W";
    case 30: return "kW";
    case 31: return "J";
    case 32: return "V";
    case 33: return "A";
    case 34: return "C";
    case 35: return "F";
    case 36: return "K";
    case 37: return "%";
    case 38: return "Primitive";
    case 39: return "Fragment";
    case 40: return "Instruction";
    default: return "Unknown";
  }
}

// Repeated enums may come packed or one by one.
void ReadRepeatedVarints(const proto::Field& f, std::vector<int64_t>* out) {
  if (f.type == proto::kVarint) {
    out->push_back(f.as_int64());
    return;
  }
  if (f.type != proto::kLengthDelimited) return;
  proto::PackedVarints it(f);
  uint64_t v;
  while (it.Next(&v)) out->push_back(static_cast<int64_t>(v));
}

}  // namespace

void GpuDecoder::ReadDescriptor(const proto::Field& field, bool legacy, GpuEventData* out) {
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == descriptor::kSpecs && f.type == proto::kLengthDelimited) {
      GpuEventData::Spec s;
      bool has_id = false, has_name = false, has_units = false;
      std::vector<int64_t> numerators, denominators;
      proto::Decoder sd(f);
      proto::Field x;
      while (sd.Next(&x)) {
        switch (x.id) {
          case spec::kCounterId: s.counter_id = x.as_uint32(); has_id = true; break;
          case spec::kName: s.name = ctx_->Intern(x.as_string()); has_name = true; break;
          case spec::kDescription: s.description = ctx_->Intern(x.as_string()); break;
          case spec::kNumeratorUnits: ReadRepeatedVarints(x, &numerators); has_units = true; break;
          case spec::kDenominatorUnits:
            ReadRepeatedVarints(x, &denominators);
            has_units = true;
            break;
          case spec::kGroups: ReadRepeatedVarints(x, &s.groups); break;
          case spec::kValueDirection: s.forwards_looking = x.as_int64() == spec::kForwardsLooking; break;
          default: break;
        }
      }
      if (!has_id || !has_name) {
        // Interned descriptors skip such specs quietly; inline ones are reported.
        if (legacy) ctx_->storage->IncrementStat("gpu_counters_invalid_spec");
        continue;
      }
      if (legacy && !legacy_counter_ids_.insert(s.counter_id).second) {
        ctx_->storage->IncrementStat("gpu_counters_invalid_spec");
        continue;
      }
      // "num1:num2/den1:den2", units of NONE left out of the denominator.
      if (has_units) {
        std::string unit;
        for (int64_t n : numerators) {
          if (!unit.empty()) unit += ':';
          unit += MeasureUnit(n);
        }
        char sep = '/';
        for (int64_t den : denominators) {
          const std::string_view u = MeasureUnit(den);
          if (u.empty()) continue;
          unit += sep;
          unit += u;
          sep = ':';
        }
        s.unit = ctx_->Intern(unit);
      }
      out->specs.push_back(std::move(s));
    } else if (f.id == descriptor::kCounterGroups && f.type == proto::kLengthDelimited) {
      GpuEventData::Group g;
      bool has_id = false;
      proto::Decoder gd(f);
      proto::Field x;
      while (gd.Next(&x)) {
        switch (x.id) {
          case group_spec::kGroupId: g.group_id = x.as_uint32(); has_id = true; break;
          case group_spec::kName: g.name = ctx_->Intern(x.as_string()); break;
          case group_spec::kDescription: g.description = ctx_->Intern(x.as_string()); break;
          case group_spec::kCounterIds: {
            std::vector<int64_t> ids;
            ReadRepeatedVarints(x, &ids);
            for (int64_t id : ids) g.counter_ids.push_back(static_cast<uint32_t>(id));
            break;
          }
          default: break;
        }
      }
      if (has_id) out->groups.push_back(std::move(g));
    }
  }
  if (d.error()) ctx_->storage->IncrementStat("gpu_counters_invalid_spec");
}

void GpuDecoder::DecodeCounterEvent(const PacketContext& packet, const proto::Field& field) {
  std::optional<proto::Field> inline_descriptor;
  std::optional<uint64_t> iid;
  int64_t gpu_id = 0;
  bool has_samples = false;
  GpuEventData samples;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case counter_event::kCounterDescriptor:
        if (f.type == proto::kLengthDelimited) inline_descriptor = f;
        break;
      case counter_event::kCounterDescriptorIid: iid = f.as_uint64(); break;
      case counter_event::kGpuId: gpu_id = f.as_int32(); break;
      case counter_event::kCounters: {
        if (f.type != proto::kLengthDelimited) break;
        has_samples = true;
        std::optional<uint32_t> id;
        std::optional<double> value;
        proto::Decoder cd(f);
        proto::Field x;
        while (cd.Next(&x)) {
          if (x.id == counter::kCounterId) id = x.as_uint32();
          if (x.id == counter::kIntValue) value = static_cast<double>(x.as_int64());
          if (x.id == counter::kDoubleValue) value = x.as_double();
        }
        if (id && value) samples.samples.emplace_back(*id, *value);
        break;
      }
      default: break;
    }
  }
  const uint32_t seq = packet.sequence_id;
  const uint32_t generation = packet.sequence ? packet.sequence->generation() : 0;
  const uint32_t queue = EventSorter::QueueForSequence(seq);

  // The descriptor: read once (per interned iid), before every sample in time.
  if (iid) {
    if (interned_seen_.insert({seq, generation, *iid}).second) {
      const std::string* bytes =
          packet.sequence ? packet.sequence->Lookup(kInternedGpuCounterDescriptors, *iid) : nullptr;
      std::optional<proto::Field> desc;
      int64_t interned_gpu = 0;
      if (bytes) {
        proto::Decoder id(*bytes);
        proto::Field x;
        while (id.Next(&x)) {
          if (x.id == interned_descriptor::kCounterDescriptor && x.type == proto::kLengthDelimited) {
            desc = x;
          }
          if (x.id == interned_descriptor::kGpuId) interned_gpu = x.as_int32();
        }
      }
      if (!desc) {
        ctx_->storage->IncrementStat("gpu_counters_invalid_spec");
      } else {
        GpuEventData data;
        data.kind = GpuEventData::Kind::kCounterDescriptor;
        data.interned = true;
        data.sequence_id = seq;
        data.generation = generation;
        data.iid = *iid;
        data.gpu_id = interned_gpu;
        ReadDescriptor(*desc, false, &data);
        ctx_->Push(queue, Event::WithPayload(INT64_MIN, EventType::kGpuEvent, std::move(data)));
      }
    }
  } else if (inline_descriptor) {
    GpuEventData data;
    data.kind = GpuEventData::Kind::kCounterDescriptor;
    data.gpu_id = gpu_id;
    ReadDescriptor(*inline_descriptor, true, &data);
    ctx_->Push(queue, Event::WithPayload(INT64_MIN, EventType::kGpuEvent, std::move(data)));
  }

  if (!has_samples) return;
  // Samples must be sorted, so they need a time; a descriptor alone does not.
  if (!packet.has_timestamp) {
    ctx_->storage->IncrementStat("gpu_counters_missing_timestamp");
    return;
  }
  samples.kind = GpuEventData::Kind::kCounterSamples;
  samples.interned = iid.has_value();
  samples.sequence_id = seq;
  samples.generation = generation;
  samples.iid = iid.value_or(0);
  ctx_->Push(queue, Event::WithPayload(packet.ts, EventType::kGpuEvent, std::move(samples)));
}

void GpuDecoder::DecodeGpuInfo(const PacketContext& packet, const proto::Field& field) {
  proto::Decoder d(field);
  proto::Field f;
  int64_t index = 0;
  while (d.Next(&f)) {
    if (f.id != gpu_info::kGpus || f.type != proto::kLengthDelimited) continue;
    GpuEventData data;
    data.kind = GpuEventData::Kind::kGpuInfo;
    data.gpu_id = index++;  // a GPU's index in the list is its gpu_id elsewhere
    // Empty strings leave the column unset.
    auto text = [&](const proto::Field& x) {
      return x.as_string().empty() ? kNullStringId : ctx_->Intern(x.as_string());
    };
    proto::Decoder gd(f);
    proto::Field x;
    while (gd.Next(&x)) {
      switch (x.id) {
        case gpu_info::kName: data.name = text(x); break;
        case gpu_info::kVendor: data.vendor = text(x); break;
        case gpu_info::kModel: data.model = text(x); break;
        case gpu_info::kArchitecture: data.architecture = text(x); break;
        case gpu_info::kPciBdf: data.pci_bdf = text(x); break;
        case gpu_info::kExtraInfo: {
          // Vendor-specific key/value pairs become the GPU's args.
          std::optional<std::string_view> key, value;
          proto::Decoder kd(x);
          proto::Field kv;
          while (kd.Next(&kv)) {
            if (kv.id == 1) key = kv.as_string();
            if (kv.id == 2) value = kv.as_string();
          }
          if (key && value) {
            const StringId k = ctx_->Intern(*key);
            data.args.push_back(Arg{k, k, ArgValue::String(ctx_->Intern(*value))});
          }
          break;
        }
        case gpu_info::kUuid: {
          std::string hex;
          for (unsigned char c : x.as_string()) {
            char buf[3];
            std::snprintf(buf, sizeof(buf), "%02x", c);
            hex += buf;
          }
          data.uuid = hex.empty() ? kNullStringId : ctx_->Intern(hex);
          break;
        }
        default: break;
      }
    }
    ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
               Event::WithPayload(packet.ts, EventType::kGpuEvent, std::move(data)));
  }
}

}  // namespace tw
