#include "libs/trace/importers/proto/heap_graph_decoder.h"

#include <utility>

#include "libs/trace/events/deobfuscation_events.h"
#include "libs/trace/events/heap_graph_events.h"
#include "libs/trace/importers/proto/heap_graph_fields.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/repeated_varints.h"

namespace tw {
namespace {

// The highest values of HeapGraphRoot.Type and HeapGraphType.Kind; anything beyond is unknown.
constexpr uint32_t kMaxRootType = 14;
constexpr uint32_t kMaxTypeKind = 11;

// An object as the wire has it; ids become absolute once the whole message is read (the id
// base may follow the references it applies to).
struct WireObject {
  HeapGraphPacketData::Object object;
  bool has_id = false, has_id_delta = false, has_heap_type = false;
  uint64_t id_delta = 0;
  uint64_t reference_base = 0;
  bool malformed = false;
};

WireObject DecodeObject(const proto::Field& field) {
  namespace f = pf::heap_graph_object;
  WireObject w;
  HeapGraphPacketData::Object& o = w.object;
  proto::Decoder d(field);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case f::kId: o.id = x.as_uint64(); w.has_id = true; break;
      case f::kIdDelta: w.id_delta = x.as_uint64(); w.has_id_delta = true; break;
      case f::kTypeId: o.type_id = x.as_uint64(); break;
      case f::kSelfSize: o.self_size = x.as_uint64(); break;
      case f::kReferenceFieldIdBase: w.reference_base = x.as_uint64(); break;
      case f::kReferenceFieldId:
        if (!proto::ForEachVarint(x, [&](uint64_t v) { o.field_name_ids.push_back(v); })) {
          w.malformed = true;
        }
        break;
      case f::kReferenceObjectId:
        if (!proto::ForEachVarint(x, [&](uint64_t v) { o.referred_objects.push_back(v); })) {
          w.malformed = true;
        }
        break;
      case f::kRuntimeInternalObjectId:
        if (!proto::ForEachVarint(
                x, [&](uint64_t v) { o.runtime_internal_objects.push_back(v); })) {
          w.malformed = true;
        }
        break;
      case f::kHeapTypeDelta: o.heap_type = x.as_uint32(); w.has_heap_type = true; break;
      case f::kNativeAllocationRegistrySizeField:
        o.native_allocation_registry_size = x.as_int64();
        break;
      case f::kBitmapIdField: o.bitmap_id = x.as_int64(); break;
      case f::kBitmapSourceIdField: o.bitmap_source_id = x.as_int64(); break;
      case f::kBitmapWidthField: o.bitmap_width = x.as_uint32(); break;
      case f::kBitmapHeightField: o.bitmap_height = x.as_uint32(); break;
      default: break;
    }
  }
  if (d.error()) w.malformed = true;
  // A zero reference is a field holding null; the base applies to the others only.
  for (uint64_t& id : o.referred_objects) {
    if (id != 0) id += w.reference_base;
  }
  return w;
}

bool DecodeType(ImportContext* ctx, const proto::Field& field, HeapGraphPacketData::Type* t) {
  namespace f = pf::heap_graph_type;
  proto::Decoder d(field);
  proto::Field x;
  bool ok = true;
  while (d.Next(&x)) {
    switch (x.id) {
      case f::kId: t->id = x.as_uint64(); break;
      case f::kLocationId: t->location_id = x.as_uint64(); break;
      case f::kClassName: t->class_name = ctx->Intern(x.as_string()); break;
      case f::kObjectSize: t->object_size = x.as_uint64(); break;
      case f::kSuperclassId: t->superclass_id = x.as_uint64(); break;
      case f::kReferenceFieldId:
        ok = proto::ForEachVarint(x, [&](uint64_t v) { t->field_name_ids.push_back(v); }) && ok;
        break;
      case f::kKind: t->kind = x.as_uint32() <= kMaxTypeKind ? x.as_uint32() : 0; break;
      case f::kClassloaderId: t->classloader_id = x.as_uint64(); break;
      default: break;
    }
  }
  if (t->class_name == kNullStringId) t->class_name = ctx->Intern("");
  return ok && !d.error();
}

bool DecodeRoot(const proto::Field& field, HeapGraphPacketData::Root* r) {
  namespace f = pf::heap_graph_root;
  proto::Decoder d(field);
  proto::Field x;
  bool ok = true;
  while (d.Next(&x)) {
    if (x.id == f::kObjectIds) {
      ok = proto::ForEachVarint(x, [&](uint64_t v) { r->object_ids.push_back(v); }) && ok;
    } else if (x.id == f::kRootType) {
      r->root_type = x.as_uint32() <= kMaxRootType ? x.as_uint32() : 0;
    }
  }
  return ok && !d.error();
}

// InternedString {iid, str}.
std::pair<uint64_t, std::string_view> DecodeInternedString(const proto::Field& field) {
  proto::Decoder d(field);
  proto::Field x;
  std::pair<uint64_t, std::string_view> out{0, {}};
  while (d.Next(&x)) {
    if (x.id == pf::interned_string::kIid) out.first = x.as_uint64();
    if (x.id == pf::interned_string::kStr) out.second = x.as_string();
  }
  return out;
}

}  // namespace

void HeapGraphDecoder::DecodeHeapGraph(const PacketContext& packet, const proto::Field& field) {
  namespace f = pf::heap_graph;
  HeapGraphPacketData data;
  data.sequence_id = packet.sequence_id;
  DumpCursor& cursor = cursors_[packet.sequence_id];
  bool objects_broken = false, roots_broken = false;
  proto::Decoder d(field);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case f::kPid: data.pid = x.as_int32(); break;
      case f::kIndex: data.index = x.as_uint64(); break;
      case f::kContinued: data.continued = x.as_bool(); break;
      case f::kHeapBytesAllocated: data.heap_bytes_allocated = x.as_int64(); break;
      case f::kObjects: {
        // After an undecodable object the rest of the packet's objects are dropped: their
        // delta-encoded ids can no longer be trusted.
        if (objects_broken || x.type != proto::kLengthDelimited) break;
        WireObject w = DecodeObject(x);
        if (w.malformed) {
          ++data.malformed;
          objects_broken = true;
          break;
        }
        HeapGraphPacketData::Object& o = w.object;
        if (w.has_id_delta && w.id_delta != 0) o.id = cursor.last_object_id + w.id_delta;
        if (!w.has_heap_type) o.heap_type = cursor.last_heap_type;
        if (!o.field_name_ids.empty() && o.field_name_ids.size() != o.referred_objects.size()) {
          ++data.malformed;  // field names must pair up with references
          break;
        }
        cursor.last_object_id = o.id;
        cursor.last_heap_type = o.heap_type;
        data.objects.push_back(std::move(o));
        break;
      }
      case f::kTypes: {
        if (x.type != proto::kLengthDelimited) break;
        HeapGraphPacketData::Type t;
        if (!DecodeType(ctx_, x, &t)) {
          ++data.malformed;
          break;
        }
        data.types.push_back(std::move(t));
        break;
      }
      case f::kFieldNames:
        if (x.type == proto::kLengthDelimited) {
          auto [iid, str] = DecodeInternedString(x);
          data.field_names.emplace_back(iid, std::string(str));
        }
        break;
      case f::kLocationNames:
        if (x.type == proto::kLengthDelimited) {
          auto [iid, str] = DecodeInternedString(x);
          data.location_names.emplace_back(iid, ctx_->Intern(str));
        }
        break;
      case f::kRoots: {
        if (roots_broken || x.type != proto::kLengthDelimited) break;
        HeapGraphPacketData::Root r;
        if (!DecodeRoot(x, &r)) {
          ++data.malformed;
          roots_broken = true;
          break;
        }
        data.roots.push_back(std::move(r));
        break;
      }
      default: break;
    }
  }
  if (d.error()) ++data.malformed;
  // The dump's last packet: the next one starts a new dump with fresh deltas.
  if (!data.continued) cursors_.erase(packet.sequence_id);
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kHeapGraph, std::move(data)));
}

void HeapGraphDecoder::DecodeArtProcessMetadata(const PacketContext& packet,
                                                const proto::Field& field) {
  namespace f = pf::art_process_metadata;
  ArtProcessMetadataData data;
  proto::Decoder d(field);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case f::kPid: data.pid = x.as_int32(); break;
      case f::kUid: data.uid = x.as_int32(); break;
      case f::kProcessName: data.process_name = std::string(x.as_string()); break;
      case f::kPackageName: data.package_name = std::string(x.as_string()); break;
      case f::kOomAllocationSize: data.oom_allocation_size = x.as_uint64(); break;
      case f::kOomTotalBytesFree: data.oom_total_bytes_free = x.as_uint64(); break;
      case f::kOomFreeBytesUntilOom: data.oom_free_bytes_until_oom = x.as_uint64(); break;
      case f::kOomErrorMsg: data.oom_error_msg = std::string(x.as_string()); break;
      case f::kOomThreadJavaStack: {
        if (x.type != proto::kLengthDelimited) break;
        auto& stack = data.oom_thread_java_stack.emplace();
        proto::Decoder sd(x);
        proto::Field frame;
        while (sd.Next(&frame)) {
          if (frame.id != pf::java_stack::kFrames || frame.type != proto::kLengthDelimited) continue;
          ArtProcessMetadataData::JavaFrame jf;
          proto::Decoder fd(frame);
          proto::Field y;
          while (fd.Next(&y)) {
            if (y.id == pf::java_frame::kMethodName) jf.method_name = std::string(y.as_string());
            if (y.id == pf::java_frame::kSourceFile) jf.source_file = std::string(y.as_string());
            if (y.id == pf::java_frame::kLineNumber) jf.line_number = y.as_int32();
          }
          stack.push_back(std::move(jf));
        }
        break;
      }
      default: break;
    }
  }
  if (d.error()) {
    ctx_->storage->IncrementStat("proto_decode_errors");
    return;
  }
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kArtProcessMetadata, std::move(data)));
}

namespace {

DeobfuscationMappingData::Member DecodeMember(const proto::Field& field) {
  namespace f = pf::obfuscated_member;
  DeobfuscationMappingData::Member m;
  proto::Decoder d(field);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case f::kObfuscatedName: m.obfuscated_name = std::string(x.as_string()); break;
      case f::kDeobfuscatedName: m.deobfuscated_name = std::string(x.as_string()); break;
      case f::kObfuscatedLineStart: m.obfuscated_line_start = x.as_uint32(); break;
      case f::kObfuscatedLineEnd: m.obfuscated_line_end = x.as_uint32(); break;
      case f::kSourceLineStart: m.source_line_start = x.as_uint32(); break;
      case f::kSourceLineEnd: m.source_line_end = x.as_uint32(); break;
      default: break;
    }
  }
  return m;
}

}  // namespace

void HeapGraphDecoder::DecodeDeobfuscationMapping(const PacketContext& packet,
                                                  const proto::Field& field) {
  DeobfuscationMappingData data;
  proto::Decoder d(field);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case pf::deobfuscation_mapping::kPackageName:
        data.package_name = std::string(x.as_string());
        break;
      case pf::deobfuscation_mapping::kVersionCode: data.version_code = x.as_int64(); break;
      case pf::deobfuscation_mapping::kObfuscatedClasses: {
        if (x.type != proto::kLengthDelimited) break;
        namespace f = pf::obfuscated_class;
        DeobfuscationMappingData::Class c;
        proto::Decoder cd(x);
        proto::Field y;
        while (cd.Next(&y)) {
          switch (y.id) {
            case f::kObfuscatedName: c.obfuscated_name = std::string(y.as_string()); break;
            case f::kDeobfuscatedName: c.deobfuscated_name = std::string(y.as_string()); break;
            case f::kObfuscatedMembers:
              if (y.type == proto::kLengthDelimited) c.members.push_back(DecodeMember(y));
              break;
            case f::kObfuscatedMethods:
              if (y.type == proto::kLengthDelimited) c.methods.push_back(DecodeMember(y));
              break;
            default: break;
          }
        }
        data.classes.push_back(std::move(c));
        break;
      }
      default: break;
    }
  }
  if (d.error()) {
    ctx_->storage->IncrementStat("proto_decode_errors");
    return;
  }
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kDeobfuscationMapping, std::move(data)));
}

}  // namespace tw
