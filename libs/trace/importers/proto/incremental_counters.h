#pragma once
// Running values of incrementally encoded counters (CounterDescriptor.is_incremental), per
// sequence: each writer sends deltas relative to its own previous value, and starts from zero
// again whenever it clears its incremental state.
//
// SequenceState drops everything it interned when the sequence clears its state; a marker
// interned under a field number InternedData never uses tells us that happened, so this class
// needs no hook in the importer.

#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/importers/proto/sequence_state.h"

namespace tw {

class IncrementalCounters {
 public:
  // Adds `delta` to counter `uuid` of sequence `sequence_id` and returns the new value.
  double Accumulate(uint32_t sequence_id, SequenceState* seq, uint64_t uuid, double delta) {
    auto& values = ValuesOf(sequence_id, seq);
    double& v = values[uuid];
    v += delta;
    return v;
  }

 private:
  static constexpr uint32_t kMarkerField = 0;  // no InternedData field has number 0
  static constexpr uint64_t kMarkerIid = 0x7477'6963'6e74'7273ull;

  absl::flat_hash_map<uint64_t, double>& ValuesOf(uint32_t sequence_id, SequenceState* seq) {
    auto& values = by_sequence_[sequence_id];
    if (!seq->Lookup(kMarkerField, kMarkerIid)) {
      values.clear();
      seq->Intern(kMarkerField, kMarkerIid, {});
    }
    return values;
  }

  absl::flat_hash_map<uint32_t, absl::flat_hash_map<uint64_t, double>> by_sequence_;
};

}  // namespace tw
