#include "libs/trace/importers/proto/track_event_callstack.h"

#include <string>

#include "libs/trace/importers/proto/interned_lookup.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/repeated_varints.h"

namespace tw {
namespace {

namespace id = pf::interned_data;

// An interned Mapping: its build id (hex) and its path, "/"-joined from the interned path
// components (a single full path keeps its own leading slash).
std::optional<CallstackFrame::Mapping> DecodeMapping(ImportContext* ctx, const SequenceState& seq,
                                                     uint64_t iid) {
  namespace m = pf::profile_mapping;
  const std::string* bytes = seq.Lookup(id::kMappings, iid);
  if (!bytes) return std::nullopt;
  CallstackFrame::Mapping out;
  std::string path;
  bool path_truncated = false;
  proto::Decoder d(*bytes);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case m::kBuildId: {
        // Build id 0 means none (writers that have none leave it unset or 0).
        if (f.as_uint64() == 0) break;
        const auto raw = InternedString(seq, id::kBuildIds, f.as_uint64());
        if (!raw) return std::nullopt;
        if (!raw->empty()) out.build_id = ctx->Intern(BuildIdHex(*raw));
        break;
      }
      case m::kPathStringIds: {
        // A path component that was never interned ends the path there: the mapping keeps
        // the components before it (as trace_processor reads older writers' mappings).
        bool complete = !path_truncated;
        proto::ForEachVarint(f, [&](uint64_t path_iid) {
          if (!complete) return;
          const auto part = InternedString(seq, id::kMappingPaths, path_iid);
          if (!part) {
            ctx->storage->IncrementStat("stackprofile_invalid_string_id");
            complete = false;
            return;
          }
          path += '/';
          path += *part;
        });
        path_truncated = !complete;
        break;
      }
      case m::kExactOffset: out.exact_offset = f.as_uint64(); break;
      case m::kStartOffset: out.start_offset = f.as_uint64(); break;
      case m::kStart: out.start = f.as_uint64(); break;
      case m::kEnd: out.end = f.as_uint64(); break;
      case m::kLoadBias: out.load_bias = f.as_uint64(); break;
      default: break;
    }
  }
  if (d.error()) return std::nullopt;
  if (path.rfind("//", 0) == 0) path.erase(0, 1);
  out.name = ctx->Intern(path);
  return out;
}

std::optional<CallstackFrame> DecodeFrame(ImportContext* ctx, const SequenceState& seq,
                                          uint64_t iid) {
  namespace fr = pf::profile_frame;
  const std::string* bytes = seq.Lookup(id::kFrames, iid);
  if (!bytes) return std::nullopt;
  CallstackFrame out;
  uint64_t mapping_iid = 0;
  proto::Decoder d(*bytes);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case fr::kFunctionNameId: {
        if (f.as_uint64() == 0) break;  // no name
        const auto name = InternedString(seq, id::kFunctionNames, f.as_uint64());
        if (!name) return std::nullopt;
        out.function_name = ctx->Intern(*name);
        break;
      }
      case fr::kMappingId: mapping_iid = f.as_uint64(); break;
      case fr::kRelPc: out.rel_pc = f.as_uint64(); break;
      default: break;
    }
  }
  if (d.error()) return std::nullopt;
  const std::optional<CallstackFrame::Mapping> mapping = DecodeMapping(ctx, seq, mapping_iid);
  if (!mapping) return std::nullopt;
  out.mapping = *mapping;
  if (out.function_name == kNullStringId) out.function_name = ctx->Intern("");
  return out;
}

}  // namespace

std::string BuildIdHex(std::string_view raw) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(raw.size() * 2);
  for (unsigned char c : raw) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

std::optional<std::vector<CallstackFrame>> DecodeInlineCallstack(ImportContext* ctx,
                                                                 const proto::Field& callstack) {
  namespace fr = pf::track_event_inline_callstack_frame;
  std::vector<CallstackFrame> frames;
  proto::Decoder d(callstack);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id != pf::track_event_inline_callstack::kFrames) continue;
    if (f.type != proto::kLengthDelimited) return std::nullopt;
    CallstackFrame& frame = frames.emplace_back();
    frame.is_inline = true;
    frame.function_name = ctx->Intern("");
    proto::Decoder fd(f);
    proto::Field x;
    while (fd.Next(&x)) {
      if (x.id == fr::kFunctionName) frame.function_name = ctx->Intern(x.as_string());
      if (x.id == fr::kSourceFile) frame.source_file = ctx->Intern(x.as_string());
      if (x.id == fr::kLineNumber) frame.line_number = x.as_uint32();
    }
    if (fd.error()) return std::nullopt;
  }
  if (d.error()) return std::nullopt;
  return frames;
}

std::optional<std::vector<CallstackFrame>> DecodeInternedCallstack(ImportContext* ctx,
                                                                   const SequenceState& seq,
                                                                   uint64_t iid) {
  const std::string* bytes = seq.Lookup(id::kCallstacks, iid);
  if (!bytes) return std::nullopt;
  std::vector<uint64_t> frame_iids;
  proto::Decoder d(*bytes);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id != pf::profile_callstack::kFrameIds) continue;
    if (!proto::ForEachVarint(f, [&](uint64_t v) { frame_iids.push_back(v); })) {
      return std::nullopt;
    }
  }
  if (d.error()) return std::nullopt;
  std::vector<CallstackFrame> frames;
  for (uint64_t frame_iid : frame_iids) {
    std::optional<CallstackFrame> frame = DecodeFrame(ctx, seq, frame_iid);
    if (!frame) return std::nullopt;
    frames.push_back(*frame);
  }
  return frames;
}

}  // namespace tw
