// pKVM hypervisor events: hyp_enter .. hyp_exit → a "hyp" slice on the CPU's "pkVM Hypervisor
// CPU <n>" track, with the reason event's fields as args; pkvm.hypervisor lists them.

#include <gtest/gtest.h>

#include "libs/trace/importers/proto/proto_writer.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using importer_testing::AddFtraceEvent;
using stdlib_testing::Rows;
using stdlib_testing::Table;

// FtraceEvent field numbers (hyp.proto and hypervisor.proto spellings).
constexpr uint32_t kHypEnter = 476, kHypExit = 477, kHostHcall = 478, kHostSmc = 479,
                   kHostMemAbort = 480, kHostFfaCall = 578, kHypervisorHypEnter = 588,
                   kHypervisorHypExit = 584, kHypervisorIommuIdmapComplete = 589;

void Empty(proto::Writer& trace, uint32_t cpu, int64_t ts, uint32_t field) {
  AddFtraceEvent(trace, cpu, ts, 0, field, proto::Writer());
}

TEST(FtracePkvm, StaysAreSlicesOnPerCpuTracksWithTheirReason) {
  proto::Writer trace;
  Empty(trace, 0, 1000, kHypEnter);
  proto::Writer smc;
  smc.Varint(1, 0x84000000);  // id
  smc.Varint(2, 1);           // forwarded
  AddFtraceEvent(trace, 0, 1100, 0, kHostSmc, smc);
  Empty(trace, 0, 1500, kHypExit);
  // A stay nothing explains.
  Empty(trace, 0, 2000, kHypEnter);
  Empty(trace, 0, 2040, kHypExit);
  // The hypervisor_* spellings, on another cpu, with a 64-bit address.
  Empty(trace, 2, 3000, kHypervisorHypEnter);
  proto::Writer abort;
  abort.Varint(1, 0x92000046);             // esr
  abort.Varint(2, 0xbd3b000000000000ULL);  // addr (above INT64_MAX)
  AddFtraceEvent(trace, 2, 3010, 0, kHostMemAbort, abort);
  Empty(trace, 2, 3700, kHypervisorHypExit);
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);

  EXPECT_EQ(Rows(t->db(), "INCLUDE PERFETTO MODULE pkvm.hypervisor;"
                          "SELECT cpu, ts, dur, reason FROM pkvm_hypervisor_events ORDER BY ts"),
            (Table{{"0", "1000", "500", "host_smc"},
                   {"0", "2000", "40", "NULL"},
                   {"2", "3000", "700", "host_mem_abort"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT DISTINCT t.name, t.type, s.name, s.category FROM slice s "
                          "JOIN track t ON t.id = s.track_id ORDER BY t.name"),
            (Table{{"pkVM Hypervisor CPU 0", "pkvm_hypervisor", "hyp", "pkvm_hyp"},
                   {"pkVM Hypervisor CPU 2", "pkvm_hypervisor", "hyp", "pkvm_hyp"}}));
  EXPECT_EQ(Rows(t->db(), "INCLUDE PERFETTO MODULE pkvm.hypervisor;"
                          "SELECT EXTRACT_ARG(s.arg_set_id, 'id'), "
                          "EXTRACT_ARG(s.arg_set_id, 'forwarded'), "
                          "EXTRACT_ARG(s.arg_set_id, 'esr'), EXTRACT_ARG(s.arg_set_id, 'addr') "
                          "FROM pkvm_hypervisor_events e JOIN slice s ON s.id = e.slice_id "
                          "WHERE reason IS NOT NULL ORDER BY e.ts"),
            (Table{{"2214592512", "1", "NULL", "NULL"},
                   {"NULL", "NULL", "2449473606", "-4811251776915243008"}}));
}

TEST(FtracePkvm, ReasonFieldsKeepTheirTypesAndMissingOnesAreZero) {
  proto::Writer trace;
  Empty(trace, 1, 100, kHypEnter);
  proto::Writer ffa;
  ffa.Varint(1, 7);  // func_id
  ffa.Varint(2, 5);  // res_a1: not kept
  ffa.Varint(7, static_cast<uint64_t>(int64_t{-22}));  // err (int32, sign-extended)
  AddFtraceEvent(trace, 1, 110, 0, kHostFfaCall, ffa);
  Empty(trace, 1, 200, kHypExit);
  Empty(trace, 1, 300, kHypEnter);
  proto::Writer complete;
  complete.Varint(1, 1);  // map
  AddFtraceEvent(trace, 1, 310, 0, kHypervisorIommuIdmapComplete, complete);
  Empty(trace, 1, 400, kHypExit);
  // A reason with no stay open is dropped, as is an hcall before any enter.
  proto::Writer hcall;
  hcall.Varint(1, 3);
  AddFtraceEvent(trace, 1, 500, 0, kHostHcall, hcall);
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT s.ts, a.key, a.value_type, a.display_value FROM slice s "
                          "JOIN args a USING (arg_set_id) ORDER BY s.ts, a.key"),
            (Table{{"100", "err", "int", "-22"},
                   {"100", "func_id", "uint", "7"},
                   {"100", "handled", "int", "0"},
                   {"100", "hyp_enter_reason", "string", "host_ffa_call"},
                   {"300", "hyp_enter_reason", "string", "iommu_idmap_complete"},
                   {"300", "map", "bool", "true"}}));
}

}  // namespace
}  // namespace tw
