// Display drivers' kernel-side tracing marks: the mdss driver's tracing_mark_write (no type
// field, trace_begin says begin or end) and the sde driver's sde_tracing_mark_write (a type
// letter, or trace_begin when the type is 0) become slices on the writing thread.

#include <gtest/gtest.h>

#include <string>

#include "libs/trace/importers/proto/proto_writer.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

constexpr uint32_t kMdssMark = 80;  // FtraceEvent.tracing_mark_write (mdss.proto)
constexpr uint32_t kSdeMark = 333;  // FtraceEvent.sde_tracing_mark_write (sde.proto)

void AddMdss(proto::Writer& trace, int64_t ts, int32_t pid, const std::string& name,
             bool begin) {
  proto::Writer m;
  m.Varint(1, static_cast<uint64_t>(pid));  // pid
  m.String(2, name);                        // trace_name
  m.Varint(3, begin ? 1 : 0);               // trace_begin
  importer_testing::AddFtraceEvent(trace, 0, ts, pid, kMdssMark, m);
}

void AddSde(proto::Writer& trace, int64_t ts, int32_t pid, const std::string& name,
            char type, bool begin) {
  proto::Writer m;
  m.Varint(1, static_cast<uint64_t>(pid));               // pid
  m.String(2, name);                                     // trace_name
  m.Varint(3, static_cast<uint64_t>(type));              // trace_type
  m.Varint(5, begin ? 1 : 0);                            // trace_begin
  importer_testing::AddFtraceEvent(trace, 1, ts, pid, kSdeMark, m);
}

TEST(FtraceDisplayMarks, MdssMarksNestOnTheWritingThread) {
  proto::Writer trace;
  AddMdss(trace, 1000, 311, "mdss_commit", true);
  AddMdss(trace, 1100, 311, "kickoff", true);
  AddMdss(trace, 1400, 311, "kickoff", false);
  AddMdss(trace, 2500, 311, "mdss_commit", false);
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(),
                 "SELECT s.ts, s.dur, s.depth, s.name, th.tid FROM slice s "
                 "JOIN thread_track tt ON s.track_id = tt.id JOIN thread th USING (utid) "
                 "ORDER BY s.ts"),
            (Table{{"1000", "1500", "0", "mdss_commit", "311"},
                   {"1100", "300", "1", "kickoff", "311"}}));
}

TEST(FtraceDisplayMarks, SdeTypeLetterOrBeginFlag) {
  proto::Writer trace;
  AddSde(trace, 500, 90, "frame_done", 'B', false);  // the type letter wins over trace_begin
  AddSde(trace, 700, 90, "frame_done", 'E', false);
  AddSde(trace, 900, 90, "vsync", 0, true);  // no type: trace_begin decides
  AddSde(trace, 950, 90, "vsync", 0, false);
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT ts, dur, name FROM slice ORDER BY ts"),
            (Table{{"500", "200", "frame_done"}, {"900", "50", "vsync"}}));
}

}  // namespace
}  // namespace tw
