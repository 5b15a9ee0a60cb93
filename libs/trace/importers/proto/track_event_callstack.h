#pragma once
// A TrackEvent's callstack: inline (TrackEvent.callstack: function names and source locations)
// or interned (callstack_iid: a profiling Callstack of Frames in Mappings, from the sequence's
// InternedData), resolved into frames the callstack tracker turns into stack_profile rows.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libs/trace/events/events.h"
#include "libs/trace/importers/proto/import_context.h"
#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/importers/proto/sequence_state.h"

namespace tw {

// A build id as stack_profile_mapping shows it: the raw bytes in lower-case hex.
std::string BuildIdHex(std::string_view raw);

// The frames of an InlineCallstack, outermost first; nullopt when it is malformed.
std::optional<std::vector<CallstackFrame>> DecodeInlineCallstack(ImportContext* ctx,
                                                                 const proto::Field& callstack);

// The frames of the interned Callstack `iid`, outermost first; nullopt when the callstack, one
// of its frames or their mappings were never interned on the sequence.
std::optional<std::vector<CallstackFrame>> DecodeInternedCallstack(ImportContext* ctx,
                                                                   const SequenceState& seq,
                                                                   uint64_t iid);

}  // namespace tw
