#pragma once
// InternedData.source_locations: the SourceLocation a TrackEvent field refers to by iid
// (an event's source_location_iid, a task's posted_from_iid, typed payloads' *_location_iid).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libs/trace/events/events.h"
#include "libs/trace/importers/proto/sequence_state.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

struct SourceLocation {
  std::string file_name;  // path separators normalised to '/'
  std::string function_name;
  std::optional<uint32_t> line_number;
};

// The location interned as `iid` on `seq`, if it is there.
std::optional<SourceLocation> LookupSourceLocation(const SequenceState& seq, uint64_t iid);

// The fields of typed TrackEvent payloads that trace_processor reads as an interned source
// location rather than a number: given a reflected scalar arg (its flat key and value), appends
// "<payload>.file_name", ".function_name" and ".line_number" (when the location has one) in its
// place and returns true; returns false (the iid stays an arg) for other fields or an iid the
// sequence does not hold.
bool ExpandInternedSourceLocationArg(const SequenceState& seq, TraceStorage* storage,
                                     const std::string& flat_key, uint64_t iid,
                                     std::vector<Arg>* out);

}  // namespace tw
