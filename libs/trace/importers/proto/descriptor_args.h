#pragma once
// Turns a protobuf message into args by reflection over a DescriptorPool, naming and typing
// them as trace_processor's proto-to-args parser does: fields in wire order, nested messages
// as "outer.inner", repeated fields indexed ("layers[2].name"; the flat key drops the index),
// packed repeated scalars unpacked, enums by value name (the number, as text, when unknown),
// bytes in base64, an empty message as a NULL arg. Unknown fields are skipped.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "libs/trace/events/events.h"
#include "libs/trace/importers/proto/descriptor_pool.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

struct DescriptorArgsOptions {
  // Keys (and flat keys) of the top-level fields are "<prefix>.<field>" when set: a message
  // embedded in another structure (a debug annotation's proto value) is named under it.
  std::string key_prefix;
  std::string flat_key_prefix;
  // Only these fields of the top-level message (all when null); its extension fields always.
  const std::vector<uint32_t>* allowed_fields = nullptr;
  // Every field a message lacks gets its default value (NULL for messages, repeated fields
  // and strings without a declared default).
  bool add_defaults = false;
  // Sees every scalar arg before it is added (key, flat key, value); returns true when it
  // added its own args instead (e.g. an interned-string id replaced by the string).
  std::function<bool(const std::string& key, const std::string& flat_key, const ArgValue& value,
                     std::vector<Arg>* out)>
      scalar_hook;
  // When set, a field holding a DebugAnnotation is not reflected but handed to this, with the
  // key and flat key of the message holding it (the field's own name is not part of the
  // annotation's key: the annotation names itself), as trace_processor's track-event args do.
  std::function<void(std::string_view annotation, const std::string& parent_key,
                     const std::string& parent_flat_key, std::vector<Arg>* out)>
      debug_annotation_hook;
};

// Appends the args of `bytes`, a message of type `def`, to `out`. Returns false if the bytes
// are not a well-formed message (the args read up to the damage are kept).
bool DescriptorToArgs(const DescriptorPool& pool, const ProtoMessageDef& def,
                      std::string_view bytes, TraceStorage* storage, std::vector<Arg>* out,
                      const DescriptorArgsOptions& options = {});

}  // namespace tw
