// Binder ftrace events (systrace text here; proto uses the same tracker) → transaction/reply
// slices, flows and android_binder_txns.

#include <gtest/gtest.h>

#include <string>

#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Scalar;
using stdlib_testing::Table;

std::unique_ptr<LoadedTrace> Load(const std::string& text) {
  auto t = LoadTraceBytes(text);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

// A synchronous call 100 → 200 answered, then a oneway call 100 → 200.
constexpr char kSyncThenOneway[] =
    "# tracer: nop\n"
    "          client-100   [000] .....   10.000000: binder_command: cmd=0x40406300 BC_TRANSACTION\n"
    "          client-100   [000] .....   10.000002: binder_transaction: transaction=7 dest_node=5 dest_proc=200 dest_thread=0 reply=0 flags=0x10 code=0x3\n"
    "          server-200   [001] .....   10.000030: binder_transaction_received: transaction=7\n"
    "          server-200   [001] .....   10.000031: binder_return: cmd=0x80407202 BR_TRANSACTION\n"
    "          server-200   [001] .....   10.000050: binder_command: cmd=0x40406301 BC_REPLY\n"
    "          server-200   [001] .....   10.000060: binder_transaction: transaction=8 dest_node=0 dest_proc=100 dest_thread=100 reply=1 flags=0x0 code=0x3\n"
    "          server-200   [001] .....   10.000061: binder_return: cmd=0x7206 BR_TRANSACTION_COMPLETE\n"
    "          client-100   [000] .....   10.000070: binder_return: cmd=0x7206 BR_TRANSACTION_COMPLETE\n"
    "          client-100   [000] .....   10.000080: binder_transaction_received: transaction=8\n"
    "          client-100   [000] .....   10.000081: binder_return: cmd=0x80407203 BR_REPLY\n"
    "          client-100   [000] .....   10.000100: binder_transaction: transaction=9 dest_node=5 dest_proc=200 dest_thread=0 reply=0 flags=0x1 code=0x4\n"
    "          server-200   [001] .....   10.000120: binder_transaction_received: transaction=9\n";

TEST(BinderImport, SyncAndOnewaySlicesWithArgsAndFlows) {
  auto t = Load(kSyncThenOneway);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(SELECT s.name, s.ts, s.dur, t.tid FROM slice AS s
                             JOIN thread_track AS tt ON tt.id = s.track_id
                             JOIN thread AS t USING (utid) ORDER BY s.ts)"),
            (Table{{"binder transaction", "10000002000", "78000", "100"},
                   {"binder reply", "10000030000", "30000", "200"},
                   {"binder transaction async", "10000100000", "0", "100"},
                   {"binder async rcv", "10000120000", "0", "200"}}));
  EXPECT_EQ(Rows(t->db(), R"(SELECT extract_arg(arg_set_id, 'transaction id'),
                                    extract_arg(arg_set_id, 'destination process'),
                                    extract_arg(arg_set_id, 'flags'),
                                    extract_arg(arg_set_id, 'code'),
                                    extract_arg(arg_set_id, 'destination thread')
                             FROM slice WHERE name = 'binder transaction')"),
            (Table{{"7", "200", "0x10 allow replies with file descriptors; ",
                    "0x03 Java Layer Dependent", "200"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(*) FROM flow"), "2");
}

// The server makes a oneway call while it handles the request: that call's instant is still
// on top of its stack when it replies. The destination args go to the innermost open "binder
// reply" slice below it (as trace_processor finds it), and every slice's args are written
// once: no arg set is left in `args` without a slice.
TEST(BinderImport, DestinationArgsReachTheOpenSliceBelowAnInstant) {
  auto t = Load(
      "# tracer: nop\n"
      "          client-100   [000] .....   10.000002: binder_transaction: transaction=7 dest_node=5 dest_proc=200 dest_thread=0 reply=0 flags=0x10 code=0x3\n"
      "          server-200   [001] .....   10.000030: binder_transaction_received: transaction=7\n"
      "          server-200   [001] .....   10.000040: binder_transaction: transaction=9 dest_node=6 dest_proc=300 dest_thread=0 reply=0 flags=0x1 code=0x4\n"
      "          server-200   [001] .....   10.000060: binder_transaction: transaction=8 dest_node=0 dest_proc=100 dest_thread=100 reply=1 flags=0x0 code=0x3\n"
      "          client-100   [000] .....   10.000080: binder_transaction_received: transaction=8\n");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(SELECT name, dur, extract_arg(arg_set_id, 'destination thread'),
                                    extract_arg(arg_set_id, 'destination name')
                             FROM slice ORDER BY ts)"),
            (Table{{"binder transaction", "78000", "200", "server"},
                   {"binder reply", "30000", "100", "client"},
                   {"binder transaction async", "0", "NULL", "NULL"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(*) FROM args WHERE key = 'destination thread'"), "2");
}

TEST(BinderImport, FailedReplyEndsTheClientSlice) {
  // The server never answers; the driver tells the client BR_FAILED_REPLY.
  auto t = Load(
      "# tracer: nop\n"
      "          client-100   [000] .....   10.000000: binder_command: cmd=0x40406300 BC_TRANSACTION\n"
      "          client-100   [000] .....   10.000010: binder_transaction: transaction=7 dest_node=5 dest_proc=200 dest_thread=0 reply=0 flags=0x0 code=0x3\n"
      "          client-100   [000] .....   10.000400: binder_return: cmd=0x7211 BR_FAILED_REPLY\n");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT name, dur FROM slice"),
            (Table{{"binder transaction", "390000"}}));
}

TEST(AndroidBinderModule, PairsClientAndServer) {
  auto t = Load(kSyncThenOneway);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(INCLUDE PERFETTO MODULE android.binder;
                             SELECT is_sync, client_tid, server_tid, client_ts, client_dur,
                                    server_ts, server_dur, aidl_name
                             FROM android_binder_txns ORDER BY client_ts)"),
            (Table{{"1", "100", "200", "10000002000", "78000", "10000030000", "30000", "NULL"},
                   {"0", "100", "200", "10000100000", "0", "10000120000", "0", "NULL"}}));
}

}  // namespace
}  // namespace tw
