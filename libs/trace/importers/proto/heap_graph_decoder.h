#pragma once
// Decodes ART's Java heap profiling packets into events: HeapGraph (TracePacket extension 56,
// one part of a heap dump), ArtProcessMetadata (the dumped process and OutOfMemoryError
// details) and DeobfuscationMapping (ProGuard / R8 name mappings). A dump spans several
// packets of one sequence; objects within it may give their id as a delta from the previous
// object's and omit their heap type when it did not change, so the decoder keeps those per
// sequence until the dump's last packet (continued = false).

#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class HeapGraphDecoder {
 public:
  explicit HeapGraphDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void DecodeHeapGraph(const PacketContext& packet, const proto::Field& field);
  void DecodeArtProcessMetadata(const PacketContext& packet, const proto::Field& field);
  void DecodeDeobfuscationMapping(const PacketContext& packet, const proto::Field& field);

 private:
  // What the next object of a sequence's dump is relative to.
  struct DumpCursor {
    uint64_t last_object_id = 0;
    uint32_t last_heap_type = 0;
  };
  ImportContext* ctx_;
  absl::flat_hash_map<uint32_t, DumpCursor> cursors_;  // by sequence id
};

}  // namespace tw
