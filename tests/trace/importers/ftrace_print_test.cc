// Print ftrace events (atrace markers written through trace_marker): an ftrace_event row with
// the event's fields as args, and the marker's slice, counter or async slice. The decoder
// carries the usual payload (ip, buf) and the marker inline, with no heap payload; any other
// layout takes the generic path. Every layout must give the same rows.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

enum class Layout { kCanonical, kReversed, kExtraField, kWithoutIp };

constexpr uint64_t kIp = 0xffffffc0101a2b3cull;

void AddPrint(proto::Writer& trace, uint32_t cpu, int64_t ts, int32_t pid, const std::string& buf,
              Layout layout) {
  namespace pr = pf::print_ftrace_event;
  proto::Writer body;
  if (layout == Layout::kReversed) {
    body.String(pr::kBuf, buf);
    body.Varint(pr::kIp, kIp);
  } else {
    if (layout != Layout::kWithoutIp) body.Varint(pr::kIp, kIp);
    body.String(pr::kBuf, buf);
    if (layout == Layout::kExtraField) body.Varint(9, 7);  // a field this build does not know
  }
  importer_testing::AddFtraceEvent(trace, cpu, ts, pid, pf::ftrace_event::kPrint, body);
}

struct Print {
  uint32_t cpu;
  int64_t ts;
  int32_t pid;
  std::string buf;
};

const std::vector<Print>& Prints() {
  static const std::vector<Print> prints = {
      {0, 100, 10, "B|10|work\n"},      {0, 150, 10, "C|10|queue|5\n"},
      {0, 200, 10, "E|10\n"},           {1, 250, 11, "S|10|load|42\n"},
      {1, 300, 11, "F|10|load|42\n"},   {1, 350, 11, "I|10|tick\n"},
      {0, 400, 12, "C|10|queue|-3\n"},  {1, 450, 11, "B|10|outer\n"},
      {1, 460, 11, "B|10|inner\n"},     {1, 470, 11, "E|10\n"},
      {0, 480, 12, "not a marker\n"},
  };
  return prints;
}

std::unique_ptr<LoadedTrace> LoadWith(Layout layout) {
  proto::Writer trace;
  for (const Print& p : Prints()) AddPrint(trace, p.cpu, p.ts, p.pid, p.buf, layout);
  return importer_testing::LoadOrFail(trace);
}

TEST(FtracePrint, EveryPayloadLayoutGivesTheSameRows) {
  auto canonical = LoadWith(Layout::kCanonical);
  ASSERT_NE(canonical, nullptr);
  const std::vector<std::string> queries = {
      "SELECT f.ts, f.name, f.cpu, th.tid, f.common_flags FROM ftrace_event AS f "
      "JOIN thread AS th USING (utid) ORDER BY f.ts",
      "SELECT s.ts, s.dur, s.name, s.depth, s.category FROM slice AS s ORDER BY s.ts",
      "SELECT c.ts, t.name, c.value, t.type FROM counter AS c "
      "JOIN counter_track AS t ON c.track_id = t.id ORDER BY c.ts",
      "SELECT utid, tid, upid FROM thread ORDER BY utid",
      "SELECT upid, pid FROM process ORDER BY upid",
      "SELECT name, idx, value FROM stats WHERE value != 0 AND name LIKE '%systrace%'",
  };
  // The rows themselves, so that agreeing layouts cannot all be wrong.
  EXPECT_EQ(Rows(canonical->db(), queries[1]),
            (Table{{"100", "100", "work", "0", "NULL"},
                   {"250", "50", "load", "0", "NULL"},
                   {"350", "0", "tick", "0", "NULL"},
                   {"450", "-1", "outer", "0", "NULL"},
                   {"460", "10", "inner", "1", "NULL"}}));
  EXPECT_EQ(Rows(canonical->db(), queries[2]),
            (Table{{"150", "queue", "5", "atrace_counter"},
                   {"400", "queue", "-3", "atrace_counter"}}));
  EXPECT_EQ(Rows(canonical->db(), queries[0]).size(), Prints().size());
  EXPECT_EQ(Rows(canonical->db(),
                 "SELECT a.key, a.display_value, a.value_type FROM ftrace_event AS f "
                 "JOIN args AS a USING (arg_set_id) WHERE f.ts = 150 ORDER BY a.key"),
            (Table{{"buf", "C|10|queue|5\n", "string"},
                   {"ip", std::to_string(kIp), "uint"}}));
  for (Layout layout : {Layout::kReversed, Layout::kExtraField, Layout::kWithoutIp}) {
    SCOPED_TRACE(static_cast<int>(layout));
    auto t = LoadWith(layout);
    ASSERT_NE(t, nullptr);
    for (const std::string& q : queries) {
      EXPECT_EQ(Rows(t->db(), q), Rows(canonical->db(), q)) << q;
    }
    if (layout == Layout::kWithoutIp) continue;  // its rows have no ip arg
    const std::string args =
        "SELECT f.ts, a.key, a.display_value, a.value_type FROM ftrace_event AS f "
        "JOIN args AS a USING (arg_set_id) ORDER BY f.ts, a.key";
    EXPECT_EQ(Rows(t->db(), args), Rows(canonical->db(), args));
  }
}

}  // namespace
}  // namespace tw
