#pragma once
// Payloads of ART's Java heap profiling: one HeapGraph packet (a part of a heap dump: objects,
// types, interned field and location names, roots), one ArtProcessMetadata packet (the dumped
// process and, after an OutOfMemoryError, its details). The decoder resolves wire-level encodings (delta ids, heap types carried only on change, the
// reference id base) so the tracker sees absolute ids.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libs/trace/storage/string_pool.h"

namespace tw {

struct HeapGraphPacketData {
  struct Object {
    uint64_t id = 0;
    uint64_t type_id = 0;
    uint64_t self_size = 0;  // 0: the type's object_size applies
    // HeapGraphObject.HeapType (0 unknown, 1 app, 2 zygote, 3 boot image), carried forward
    // from the previous object of the dump when the packet omits it.
    uint32_t heap_type = 0;
    // Per reference: the field's interned name id (empty: the type's fields name them) and the
    // referred object id (0: the field holds null).
    std::vector<uint64_t> field_name_ids;
    std::vector<uint64_t> referred_objects;
    std::vector<uint64_t> runtime_internal_objects;
    std::optional<int64_t> native_allocation_registry_size;
    std::optional<int64_t> bitmap_id;
    std::optional<int64_t> bitmap_source_id;
    std::optional<uint32_t> bitmap_width;
    std::optional<uint32_t> bitmap_height;
  };
  struct Type {
    uint64_t id = 0;
    std::optional<uint64_t> location_id;
    StringId class_name = kNullStringId;
    uint64_t object_size = 0;
    uint64_t superclass_id = 0;  // 0: none
    std::vector<uint64_t> field_name_ids;
    uint32_t kind = 0;  // HeapGraphType.Kind; out-of-range values read as KIND_UNKNOWN
    uint64_t classloader_id = 0;  // 0: none
  };
  struct Root {
    uint32_t root_type = 0;  // HeapGraphRoot.Type; out-of-range values read as ROOT_UNKNOWN
    std::vector<uint64_t> object_ids;
  };

  uint32_t sequence_id = 0;
  int32_t pid = 0;
  uint64_t index = 0;
  std::optional<int64_t> heap_bytes_allocated;
  bool continued = false;
  std::vector<Object> objects;
  std::vector<Type> types;
  // Interned "type name" strings: "<field type> <Class.field>" (the type part may be absent).
  std::vector<std::pair<uint64_t, std::string>> field_names;
  std::vector<std::pair<uint64_t, StringId>> location_names;
  std::vector<Root> roots;
  // Parts of the packet that could not be decoded (heap_graph_malformed_packet).
  uint32_t malformed = 0;
};

struct ArtProcessMetadataData {
  struct JavaFrame {
    std::optional<std::string> method_name;
    std::optional<std::string> source_file;
    std::optional<int32_t> line_number;
  };
  int32_t pid = 0;
  std::optional<int32_t> uid;
  std::optional<std::string> process_name;
  std::optional<std::string> package_name;
  // OutOfMemoryError details: present when the dump was triggered by one.
  std::optional<uint64_t> oom_allocation_size;
  uint64_t oom_total_bytes_free = 0;
  uint64_t oom_free_bytes_until_oom = 0;
  std::optional<std::vector<JavaFrame>> oom_thread_java_stack;  // innermost frame first
  std::optional<std::string> oom_error_msg;
};

}  // namespace tw
