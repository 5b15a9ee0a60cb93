#pragma once
// Builders for small track-event traces (real protobuf bytes via proto::Writer) and a helper
// that runs a query and returns its rows as CSV lines, for compact expectations.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/query/result_format.h"
#include "tests/trace/track_event/test_pipeline.h"

namespace tw::testing {

namespace tp = pf::trace_packet;
namespace td = pf::track_descriptor;
namespace te = pf::track_event;

// One TracePacket on a sequence.
class Packet {
 public:
  Packet(uint32_t sequence_id, std::optional<int64_t> ts) {
    w_.Varint(tp::kTrustedPacketSequenceId, sequence_id);
    if (ts) w_.Varint(tp::kTimestamp, static_cast<uint64_t>(*ts));
  }
  Packet& ClearedState() {
    w_.Bool(tp::kIncrementalStateCleared, true);
    return *this;
  }
  Packet& FirstOnSequence() {
    w_.Bool(tp::kFirstPacketOnSequence, true);
    return *this;
  }
  Packet& Field(uint32_t id, const proto::Writer& m) {
    w_.Message(id, m);
    return *this;
  }
  Packet& Descriptor(const proto::Writer& d) { return Field(tp::kTrackDescriptor, d); }
  Packet& Event(const proto::Writer& e) { return Field(tp::kTrackEvent, e); }
  // TracePacketDefaults with track_event_defaults.track_uuid.
  Packet& DefaultTrack(uint64_t uuid) {
    proto::Writer ted, defaults;
    ted.Varint(pf::track_event_defaults::kTrackUuid, uuid);
    defaults.Message(pf::trace_packet_defaults::kTrackEventDefaults, ted);
    return Field(tp::kTracePacketDefaults, defaults);
  }
  const proto::Writer& writer() const { return w_; }

 private:
  proto::Writer w_;
};

inline std::string Trace(std::initializer_list<Packet> packets) {
  proto::Writer trace;
  for (const Packet& p : packets) trace.Message(pf::trace::kPacket, p.writer());
  return trace.Take();
}

inline proto::Writer ThreadTrack(uint64_t uuid, int32_t pid, int32_t tid, std::string_view name) {
  proto::Writer thread, d;
  thread.Int(pf::thread_descriptor::kPid, pid);
  thread.Int(pf::thread_descriptor::kTid, tid);
  if (!name.empty()) thread.String(pf::thread_descriptor::kThreadName, name);
  d.Varint(td::kUuid, uuid);
  d.Message(td::kThread, thread);
  return d;
}

inline proto::Writer ProcessTrack(uint64_t uuid, int32_t pid, std::string_view name) {
  proto::Writer process, d;
  process.Int(pf::process_descriptor::kPid, pid);
  if (!name.empty()) process.String(pf::process_descriptor::kProcessName, name);
  d.Varint(td::kUuid, uuid);
  d.Message(td::kProcess, process);
  return d;
}

inline proto::Writer NamedTrack(uint64_t uuid, std::string_view name, uint64_t parent = 0) {
  proto::Writer d;
  d.Varint(td::kUuid, uuid);
  if (!name.empty()) d.String(td::kName, name);
  if (parent) d.Varint(td::kParentUuid, parent);
  return d;
}

// A TrackEvent of `type` (TrackEvent.Type) with an inline name and category.
inline proto::Writer Event(uint32_t type, std::string_view name,
                           std::optional<uint64_t> track_uuid = std::nullopt,
                           std::string_view category = "cat") {
  proto::Writer e;
  e.Varint(te::kType, type);
  if (!name.empty()) e.String(te::kName, name);
  if (!category.empty()) e.String(te::kCategories, category);
  if (track_uuid) e.Varint(te::kTrackUuid, *track_uuid);
  return e;
}

inline constexpr uint32_t kBegin = pf::track_event_type::kSliceBegin;
inline constexpr uint32_t kEnd = pf::track_event_type::kSliceEnd;
inline constexpr uint32_t kInstant = pf::track_event_type::kInstant;
inline constexpr uint32_t kCounter = pf::track_event_type::kCounter;

// Loads `trace` and returns the rows of `sql`, each as a CSV line (FormatCsv's cell format).
inline std::vector<std::string> Rows(const std::string& trace, std::string_view sql) {
  auto loaded = LoadWithTrackEvents(trace);
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  if (!loaded.ok()) return {};
  auto result = (*loaded)->Query(sql);
  EXPECT_TRUE(result.ok()) << result.status() << " in " << sql;
  if (!result.ok()) return {};
  std::vector<std::string> rows;
  for (const auto& row : result->rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      if (i) line += ',';
      line += FormatCsvValue(row[i]);
    }
    rows.push_back(line);
  }
  return rows;
}

}  // namespace tw::testing
