#pragma once
// Flattens TrackEvent debug annotations into args, named the way trace_processor names them so
// queries written for Perfetto find them: "debug.<name>", nested dictionaries add ".<key>",
// arrays add "[i]" to the key only (the flat_key keeps the array's name, e.g. key
// "debug.list[2]" has flat_key "debug.list"). Names are sanitised ('.', '[' and ']' become
// '_') so they cannot forge nesting. A legacy JSON value is expanded the same way (objects add
// ".<member>", arrays "[i]"). A proto value ("proto_value" + its type name) is walked
// with the trace's descriptor pool under the annotation's key ("debug.<name>.<field>").

#include <cstdint>
#include <functional>
#include <string_view>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/importers/proto/descriptor_pool.h"
#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/importers/proto/sequence_state.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// For DescriptorArgsOptions::debug_annotation_hook: a DebugAnnotation held by a typed payload
// field is decoded as an annotation named under the payload's key.
std::function<void(std::string_view, const std::string&, const std::string&, std::vector<Arg>*)>
AnnotationFieldHook(TraceStorage* storage, const SequenceState* seq, const DescriptorPool* pool);

class DebugAnnotationDecoder {
 public:
  // `seq` resolves interned names and string values; `pool` (the trace's descriptors, may be
  // null) types proto values. `out` receives the args; one decoder instance serves one event
  // (array indices continue across its annotations, as in trace_processor's per-event args
  // inserter).
  // `root` is the key the annotations are named under: "debug" for an event's own, the
  // holding message's key for a DebugAnnotation inside a typed payload.
  DebugAnnotationDecoder(TraceStorage* storage, const SequenceState* seq, std::vector<Arg>* out,
                         const DescriptorPool* pool = nullptr, std::string root = "debug");

  // Decodes one DebugAnnotation message (its bytes) named under the decoder's root, with
  // `flat_root` as the flat key of that root (it differs when the root has array indices).
  bool DecodeUnder(std::string_view annotation, const std::string& flat_root);

  // Decodes one TrackEvent.debug_annotations entry. Returns false when it is malformed (no
  // name, unknown interned id, too deep); args decoded before the problem are kept.
  bool Decode(const proto::Field& annotation);

  // The string_value of the first annotation decoded (used by legacy metadata events).
  StringId first_string_value() const { return first_string_value_; }

  // The keys of the arrays the annotations produced (e.g. "debug.list"), each with its next
  // index. An end event's arrays continue its begin's (see AnnotationArrays in trackers/).
  const absl::flat_hash_map<std::string, size_t>& array_indices() const {
    return next_array_index_;
  }

 private:
  struct Result {
    bool ok = true;
    bool added = false;  // whether an arg (or a dictionary) was produced
  };
  // An annotation with its own name: enters "<name>" then decodes its value.
  Result DecodeNamed(const proto::Field& annotation, int depth);
  Result DecodeValue(const proto::Field& annotation, int depth);
  Result DecodeNested(const proto::Field& nested_value, int depth);
  // A proto_value of message type `type_name` (not DebugAnnotation itself).
  Result DecodeProtoValue(std::string_view type_name, std::string_view bytes);

  void EnterDict(std::string_view name);
  void EnterArray(size_t index);
  struct Mark {
    size_t key_size;
    size_t flat_key_size;
  };
  Mark Save() const { return {key_.size(), flat_key_.size()}; }
  void Restore(Mark m) {
    key_.resize(m.key_size);
    flat_key_.resize(m.flat_key_size);
  }
  void Emit(ArgValue value);
  bool ResolveName(const proto::Field& annotation, std::string* name) const;

  TraceStorage* storage_;
  const SequenceState* seq_;
  std::vector<Arg>* out_;
  const DescriptorPool* pool_;
  std::string key_;
  std::string flat_key_;
  absl::flat_hash_map<std::string, size_t> next_array_index_;
  StringId first_string_value_ = kNullStringId;
  bool first_done_ = false;
};

}  // namespace tw
