// Device events: Exynos ACPM thermal zones (the bulk event's counters at the sample time it
// carries, its ftrace_event row at the kernel's time), ChromeOS EC sensor hub samples, f2fs I/O
// statistics and latencies, Adreno GPU command batches. Field numbers are the protos'.

#include <gtest/gtest.h>

#include "libs/trace/importers/proto/proto_writer.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using importer_testing::AddFtraceEvent;
using importer_testing::LoadOrFail;
using stdlib_testing::Rows;
using stdlib_testing::Table;

constexpr uint32_t kCrosEcSensorhubData = 364;
constexpr uint32_t kF2fsIostat = 419;
constexpr uint32_t kF2fsIostatLatency = 420;
constexpr uint32_t kAdrenoCmdbatchQueued = 534;
constexpr uint32_t kAdrenoCmdbatchSync = 536;
constexpr uint32_t kAdrenoCmdbatchRetired = 537;
constexpr uint32_t kThermalExynosAcpmBulk = 506;
constexpr uint32_t kThermalExynosAcpmHighOverhead = 507;

constexpr char kCountersSql[] =
    "SELECT t.name, c.ts, CAST(c.value AS INT) FROM counter c JOIN track t ON c.track_id = t.id "
    "ORDER BY t.name, c.ts";

TEST(FtraceDeviceEvents, AcpmBulkCountsAtItsSampleTimeAndKeepsItsRowAtTheKernelTime) {
  proto::Writer trace;
  proto::Writer bulk;
  bulk.Varint(1, 2);         // tz_id: LITTLE
  bulk.Varint(2, 51);        // current_temp
  bulk.Varint(4, 3);         // cdev_state
  bulk.Varint(11, 7000);     // timestamp: when ACPM sampled
  AddFtraceEvent(trace, 0, 9000, 10, kThermalExynosAcpmBulk, bulk);
  proto::Writer high;
  high.Varint(1, 6);         // tz_id: AUR
  high.Varint(2, 44);
  high.Varint(4, 1);
  AddFtraceEvent(trace, 0, 9500, 10, kThermalExynosAcpmHighOverhead, high);
  proto::Writer unknown_zone;
  unknown_zone.Varint(1, 9);
  AddFtraceEvent(trace, 0, 9600, 10, kThermalExynosAcpmHighOverhead, unknown_zone);
  proto::Writer no_time;     // a bulk event without its sample time is dropped whole
  no_time.Varint(1, 0);
  AddFtraceEvent(trace, 0, 9700, 10, kThermalExynosAcpmBulk, no_time);
  auto t = LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), kCountersSql),
            (Table{{"AUR Temperature", "9500", "44"},
                   {"LITTLE Temperature", "7000", "51"},
                   {"Tj-AUR Cooling Device", "9500", "1"},
                   {"Tj-LITTLE Cooling Device", "7000", "3"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT name, ts FROM ftrace_event ORDER BY ts"),
            (Table{{"thermal_exynos_acpm_bulk", "9000"},
                   {"thermal_exynos_acpm_high_overhead", "9500"},
                   {"thermal_exynos_acpm_high_overhead", "9600"}}));
  EXPECT_EQ(Rows(t->db(),
                 "SELECT DISTINCT t.type, EXTRACT_ARG(c.arg_set_id, 'thermal_zone_id') FROM counter c "
                 "JOIN track t ON c.track_id = t.id WHERE t.name LIKE '%LITTLE%' ORDER BY 1"),
            (Table{{"acpm_cooling_device_counter", "2"}, {"acpm_thermal_temperature", "2"}}));
  EXPECT_EQ(Rows(t->db(),
                 "SELECT name, value FROM stats WHERE value > 0 AND name IN "
                 "('ftrace_thermal_exynos_acpm_unknown_tz_id', 'ftrace_bundle_tokenizer_errors') "
                 "ORDER BY name"),
            (Table{{"ftrace_bundle_tokenizer_errors", "1"},
                   {"ftrace_thermal_exynos_acpm_unknown_tz_id", "1"}}));
}

TEST(FtraceDeviceEvents, CrosEcSensorhubSampleDelayPerSensor) {
  proto::Writer trace;
  proto::Writer e;
  e.Varint(1, 5000);   // current_time
  e.Varint(2, 4200);   // current_timestamp: the sample's time
  e.Varint(5, 3);      // ec_sensor_num
  e.Varint(6, 4900);   // fifo_timestamp
  AddFtraceEvent(trace, 1, 5000, 0, kCrosEcSensorhubData, e);
  auto t = LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(),
                 "SELECT t.name, t.type, CAST(c.value AS INT), EXTRACT_ARG(c.arg_set_id, 'ec_num'), "
                 "EXTRACT_ARG(c.arg_set_id, 'ec_delta'), EXTRACT_ARG(c.arg_set_id, 'sample_ts') "
                 "FROM counter c JOIN track t ON c.track_id = t.id"),
            (Table{{"cros_ec.cros_ec_sensorhub_data.3", "cros_ec_sensorhub_data", "800", "3", "700",
                    "4200"}}));
}

TEST(FtraceDeviceEvents, F2fsIostatCountersPerDevice) {
  proto::Writer trace;
  proto::Writer io;
  io.Varint(8, 40);              // app_wio: write_app_total
  io.Varint(7, 25);              // app_rio: read_app_total
  io.Varint(15, 2);              // fs_discard
  io.Varint(9, (259 << 8) | 5);  // dev: only the low 16 bits name it, 3:5
  AddFtraceEvent(trace, 0, 100, 0, kF2fsIostat, io);
  proto::Writer lat;
  lat.Varint(3, 90);             // d_rd_peak
  lat.Varint(26, 12);            // n_wr_s_avg
  lat.Varint(10, (8 << 8) | 1);  // dev 8:1
  AddFtraceEvent(trace, 0, 200, 0, kF2fsIostatLatency, lat);
  auto t = LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT COUNT(*) FROM track WHERE type = 'f2fs_iostat'"),
            (Table{{"22"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT COUNT(*) FROM track WHERE type = 'f2fs_iostat_latency'"),
            (Table{{"27"}}));
  EXPECT_EQ(Rows(t->db(),
                 "SELECT t.name, CAST(c.value AS INT) FROM counter c JOIN track t "
                 "ON c.track_id = t.id WHERE c.value > 0 ORDER BY t.name"),
            (Table{{"f2fs_iostat.[3:5].other_fs_discard", "2"},
                   {"f2fs_iostat.[3:5].read_app_total", "25"},
                   {"f2fs_iostat.[3:5].write_app_total", "40"},
                   {"f2fs_iostat_latency.[8:1].read_data_peak", "90"},
                   {"f2fs_iostat_latency.[8:1].write_sync_node_avg", "12"}}));
}

TEST(FtraceDeviceEvents, AdrenoBatchesAreSlicesNamedAfterTheQueueingProcess) {
  proto::Writer trace;
  {
    proto::Writer process;
    process.Varint(pf::process_tree_process::kPid, 300);
    process.Varint(pf::process_tree_process::kPpid, 1);
    process.String(pf::process_tree_process::kCmdline, "com.example.game");
    proto::Writer tree;
    tree.Message(pf::process_tree::kProcesses, process);
    proto::Writer packet;
    packet.Message(pf::trace_packet::kProcessTree, tree);
    trace.Message(pf::trace::kPacket, packet);
  }
  proto::Writer queued;
  queued.Varint(1, 7);  // id: the GPU context
  AddFtraceEvent(trace, 0, 1000, 300, kAdrenoCmdbatchQueued, queued);
  auto sync = [](uint32_t batch, uint64_t ticks) {
    proto::Writer w;
    w.Varint(2, batch);  // timestamp: the batch's number
    w.Varint(3, ticks);  // GPU ticks now
    return w;
  };
  auto retired = [](uint32_t context, uint32_t batch, uint64_t start, uint64_t retire) {
    proto::Writer r;
    r.Varint(1, context);
    r.Varint(2, batch);
    r.Varint(6, start);
    r.Varint(7, retire);
    r.Varint(8, 2);  // prio
    return r;
  };
  // 19.2 MHz ticks: 19200 ticks are 1 ms. A batch starts at its sync's time plus the ticks
  // between; the sync may come before or after the retirement.
  AddFtraceEvent(trace, 0, 1500, 0, kAdrenoCmdbatchSync, sync(1, 1000));
  AddFtraceEvent(trace, 0, 9000, 0, kAdrenoCmdbatchRetired, retired(7, 1, 20200, 39400));
  AddFtraceEvent(trace, 0, 9500, 0, kAdrenoCmdbatchRetired, retired(7, 2, 5000, 43400));
  AddFtraceEvent(trace, 0, 10000, 0, kAdrenoCmdbatchSync, sync(2, 5000));
  AddFtraceEvent(trace, 0, 11000, 0, kAdrenoCmdbatchRetired, retired(9, 3, 0, 10));  // no sync
  AddFtraceEvent(trace, 0, 12000, 0, kAdrenoCmdbatchSync, sync(4, 0));
  AddFtraceEvent(trace, 0, 12500, 0, kAdrenoCmdbatchRetired, retired(7, 4, 100, 50));  // backwards
  AddFtraceEvent(trace, 0, 20000, 0, kAdrenoCmdbatchSync, sync(5, 0));
  AddFtraceEvent(trace, 0, 21000, 0, kAdrenoCmdbatchRetired, retired(9, 5, 0, 1920));
  auto t = LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(),
                 "SELECT s.name, s.ts, s.dur, t.name FROM slice s JOIN track t ON s.track_id = t.id "
                 "WHERE t.type = 'adreno_gpu_cmdbatch' ORDER BY s.ts"),
            (Table{{"GPU", "10000", "2000000", "GPU com.example.game (Ctx=7, Prio=2)"},
                   {"GPU", "20000", "100000", "GPU (Ctx=9, Prio=2)"},
                   {"GPU", "1001500", "1000000", "GPU com.example.game (Ctx=7, Prio=2)"}}));
  // The two batches of context 7 overlap: two tracks of one set.
  EXPECT_EQ(Rows(t->db(),
                 "SELECT COUNT(DISTINCT s.track_id) FROM slice s JOIN track t "
                 "ON s.track_id = t.id WHERE t.name LIKE '%Ctx=7%'"),
            (Table{{"2"}}));
  // Every retirement keeps its row at the kernel's time.
  EXPECT_EQ(Rows(t->db(), "SELECT COUNT(*) FROM ftrace_event "
                          "WHERE name = 'kgsl_adreno_cmdbatch_retired'"),
            (Table{{"5"}}));
}

}  // namespace
}  // namespace tw
