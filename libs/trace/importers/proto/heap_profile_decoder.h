#pragma once
// Decodes heapprofd's ProfilePacket (TracePacket field 37): native heap profiles. A profile is
// one packet or a run of `continued` packets; its strings, mappings, frames and callstacks are
// defined in the packets themselves and hold until the run ends (newer heapprofd interns
// callstacks in the sequence's InternedData instead, which samples fall back to). Each process
// dump (ProcessHeapSamples) is timestamped on CLOCK_MONOTONIC_COARSE and carries, per
// callstack, cumulative allocated / freed bytes and counts (or, for dump-at-max profiles, the
// bytes and count live at the peak). The tracker writes the rows (HeapProfileTracker); what is
// malformed (unknown string, mapping, frame or callstack ids, lost packets) is counted in
// stats here, under trace_processor's names.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "libs/trace/events/events.h"
#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class HeapProfileDecoder {
 public:
  explicit HeapProfileDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void Decode(const PacketContext& packet, const proto::Field& field);

 private:
  // What the packets of the profile being read defined so far (cleared when it ends), and the
  // index of the sequence's last packet (heapprofd numbers them from 0; a gap is a lost one).
  struct Profile {
    uint32_t generation = 0;
    std::optional<uint64_t> last_index;
    absl::flat_hash_map<uint64_t, std::string> strings;
    absl::flat_hash_map<uint64_t, CallstackFrame::Mapping> mappings;
    absl::flat_hash_map<uint64_t, CallstackFrame> frames;
    absl::flat_hash_set<uint64_t> callstacks;  // the iids defined (and resolved)
  };
  Profile& ProfileFor(const PacketContext& packet);
  void AddString(Profile& p, const proto::Field& f);
  void AddMapping(Profile& p, const proto::Field& f);
  void AddFrame(Profile& p, const proto::Field& f, HeapProfileData* out);
  void AddCallstack(Profile& p, const proto::Field& f, HeapProfileData* out);
  std::optional<HeapProfileData::Dump> DecodeDump(const PacketContext& packet,
                                                  const Profile& p, const proto::Field& f);
  std::shared_ptr<const std::vector<CallstackFrame>> InternedCallstack(
      const PacketContext& packet, uint64_t iid);

  ImportContext* ctx_;
  absl::flat_hash_map<uint32_t, Profile> profiles_;  // by sequence id
  // Callstacks resolved from a sequence's InternedData, for one generation of it.
  struct InternedCallstacks {
    uint32_t generation = 0;
    absl::flat_hash_map<uint64_t, std::shared_ptr<const std::vector<CallstackFrame>>> by_iid;
  };
  absl::flat_hash_map<uint32_t, InternedCallstacks> interned_;  // by sequence id
};

}  // namespace tw
