// The pure helpers behind the system-probe decoders, and the parts the loader does not reach
// yet without importer wiring (sequence-loss attribution, end-of-trace stats, cpu args).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libs/trace/importers/proto/android_fingerprint.h"
#include "libs/trace/importers/proto/base64.h"
#include "libs/trace/importers/proto/cpu_info_decoder.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_text.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/importers/proto/sequence_loss_tracker.h"
#include "libs/trace/importers/proto/trace_config_decoder.h"
#include "libs/trace/importers/proto/trace_config_schema.h"
#include "libs/trace/importers/proto/trace_stats_decoder.h"
#include "libs/trace/importers/proto/trace_uuid.h"

namespace tw {
namespace {

proto::Field AsField(const std::string& bytes) {
  proto::Field f;
  f.type = proto::kLengthDelimited;
  f.data = reinterpret_cast<const uint8_t*>(bytes.data());
  f.size = bytes.size();
  return f;
}

TEST(TraceUuidTest, FormatsMsbThenLsb) {
  EXPECT_EQ(FormatTraceUuid(0x123e4567e89b12d3, static_cast<int64_t>(0xa456426655443322)),
            "123e4567-e89b-12d3-a456-426655443322");
  EXPECT_EQ(FormatTraceUuid(0, 1), "00000000-0000-0000-0000-000000000001");
}

TEST(TraceUuidTest, FallbackHashesTheFilePrefix) {
  // FNV-1a 64 of "a" is af63dc4c8601ec8c.
  EXPECT_EQ(TraceUuidFromFilePrefix("a"), "00000000-0000-0000-af63-dc4c8601ec8c");
  // Only the first 4096 bytes count.
  const std::string big(5000, 'x');
  EXPECT_EQ(TraceUuidFromFilePrefix(big), TraceUuidFromFilePrefix(big.substr(0, 4096)));
}

TEST(Base64Test, Padding) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
}

TEST(AndroidFingerprintTest, ReleaseAndIncremental) {
  auto p = ParseAndroidFingerprint("google/shamu/shamu:7.0/NBD92F/3753956:userdebug/dev-keys");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->sdk_version, 24);
  EXPECT_EQ(p->incremental, "3753956");
  EXPECT_EQ(ParseAndroidFingerprint("a/b/c:Tiramisu/X/1:user/k")->sdk_version, 31);
  EXPECT_FALSE(ParseAndroidFingerprint("a/b/c:99/X/1:user/k")->sdk_version);
  EXPECT_FALSE(ParseAndroidFingerprint("no colon here"));
}

TEST(ProtoTextTest, NestedMessagesEnumsAndUnknownFields) {
  proto::Writer buffer;
  buffer.Varint(pf::trace_config_buffer_config::kSizeKb, 1024);
  buffer.Varint(pf::trace_config_buffer_config::kFillPolicy, pf::buffer_fill_policy::kDiscard);
  proto::Writer ds_config;
  ds_config.String(pf::data_source_config::kName, "linux.ftrace");
  proto::Writer ftrace;
  ftrace.String(1, "sched/sched_switch");
  ds_config.Message(pf::data_source_config::kFtraceConfig, ftrace);
  proto::Writer ds;
  ds.Message(pf::trace_config_data_source::kConfig, ds_config);
  proto::Writer config;
  config.Message(pf::trace_config::kBuffers, buffer);
  config.Message(pf::trace_config::kDataSources, ds);
  config.Varint(pf::trace_config::kDurationMs, 10000);
  config.Varint(999, 5);
  EXPECT_EQ(ProtoToText(TraceConfigSchema(), config.data()),
            "buffers {\n"
            "  size_kb: 1024\n"
            "  fill_policy: DISCARD\n"
            "}\n"
            "data_sources {\n"
            "  config {\n"
            "    name: \"linux.ftrace\"\n"
            "    ftrace_config {\n"
            "      1: \"sched/sched_switch\"\n"
            "    }\n"
            "  }\n"
            "}\n"
            "duration_ms: 10000\n"
            "999: 5");
}

TEST(ProtoTextTest, StringEscapes) {
  EXPECT_EQ(QuoteTextProtoString("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\001\"");
}

// Packet loss seen on sequences is attributed to the buffers writer_stats name.
TEST(SequenceLossTest, WriterStatsAttributeLossToBuffers) {
  SequenceLossTracker loss;
  // Sequence 2 (buffer 0): first packet's loss does not count; then read-gap + overwrite.
  loss.OnPacket(true, 2, 1);
  loss.OnPacket(true, 2, 3);   // bit 1: DATA_LOSS_READ_GAP
  loss.OnPacket(true, 2, 65);  // bit 6: DATA_LOSS_OVERWRITE
  // Sequence 3 (buffer 1): every packet needing incremental state was skipped.
  loss.OnPacket(true, 3, 0);
  loss.OnNeedsIncrementalState(3, true);
  loss.OnNeedsIncrementalState(3, true);

  TraceStorage storage;
  ImportContext ctx;
  ctx.storage = &storage;
  TraceStatsDecoder decoder(&ctx, &loss);
  auto writer = [](uint64_t seq, uint32_t buffer) {
    proto::Writer w;
    w.Varint(pf::trace_stats_writer_stats::kSequenceId, seq);
    w.Varint(pf::trace_stats_writer_stats::kBuffer, buffer);
    return w;
  };
  proto::Writer stats;
  stats.Message(pf::trace_stats::kWriterStats, writer(2, 0));
  stats.Message(pf::trace_stats::kWriterStats, writer(3, 1));
  stats.Message(pf::trace_stats::kWriterStats, writer(99, 1));  // no packets: ignored
  const std::string bytes = stats.Take();
  decoder.Decode(AsField(bytes));
  storage.FinalizeStatsAndMetadata();

  std::vector<std::string> seen;
  for (uint32_t r = 0; r < storage.stats.row_count(); ++r) {
    const std::string_view name = storage.Str(storage.stats.name[r]);
    if (storage.stats.idx.IsNull(r) || storage.stats.value[r] == 0) continue;
    seen.push_back(std::string(name) + "[" + std::to_string(storage.stats.idx[r]) +
                   "]=" + std::to_string(storage.stats.value[r]));
  }
  EXPECT_EQ(seen, (std::vector<std::string>{
                      "traced_buf_data_loss_overwrite[0]=1",
                      "traced_buf_data_loss_read_gap[0]=1",
                      "traced_buf_incremental_sequences_dropped[1]=1",
                      "traced_buf_sequence_packet_loss[0]=2",
                  }));
}

TEST(TraceConfigFinishTest, LongTraceModeOverwritesAreDataLoss) {
  TraceStorage storage;
  ImportContext ctx;
  ctx.storage = &storage;
  TraceConfigDecoder decoder(&ctx);
  proto::Writer buffer;
  buffer.Varint(pf::trace_config_buffer_config::kSizeKb, 1024);
  proto::Writer config;
  config.Bool(pf::trace_config::kWriteIntoFile, true);
  config.Varint(pf::trace_config::kFileWritePeriodMs, 5000);
  config.Message(pf::trace_config::kBuffers, buffer);
  config.Message(pf::trace_config::kBuffers, buffer);
  const std::string bytes = config.Take();
  bool uuid_found = false;
  decoder.Decode(AsField(bytes), &uuid_found);
  decoder.Finish({{0, 2048}, {1, 0}});
  storage.FinalizeStatsAndMetadata();
  int rows = 0;
  for (uint32_t r = 0; r < storage.stats.row_count(); ++r) {
    const std::string_view name = storage.Str(storage.stats.name[r]);
    if (name == "long_trace_mode_bytes_overwritten") {
      ++rows;
      EXPECT_EQ(storage.stats.idx[r], 0);
      EXPECT_EQ(storage.stats.value[r], 2048);
    }
    // No flush period and no service version: the service may not flush on writes.
    if (name == "config_write_into_file_no_flush") {
      EXPECT_EQ(storage.stats.value[r], 1);
    }
  }
  EXPECT_EQ(rows, 1);
}

TEST(CpuInfoArgsTest, ArmIdentifierAndFeatureBitsBecomeArgs) {
  TraceStorage storage;
  ImportContext ctx;
  ctx.storage = &storage;
  CpuInfoDecoder decoder(&ctx);
  std::vector<std::vector<Arg>> sets;
  decoder.set_arg_set_sink([&](const std::vector<Arg>& args) -> std::optional<uint32_t> {
    sets.push_back(args);
    return static_cast<uint32_t>(sets.size() - 1);
  });
  proto::Writer arm;
  arm.Varint(pf::cpu_info_arm_cpu_identifier::kPart, 3336);
  proto::Writer plain, featured;
  plain.String(pf::cpu_info_cpu::kProcessor, "p");
  featured.String(pf::cpu_info_cpu::kProcessor, "p");
  featured.Message(pf::cpu_info_cpu::kArmIdentifier, arm);
  featured.Varint(pf::cpu_info_cpu::kFeatures, 4611686018427387907ull);  // bits 0, 1, 62
  proto::Writer info;
  info.Message(pf::cpu_info::kCpus, plain);
  info.Message(pf::cpu_info::kCpus, featured);
  const std::string bytes = info.Take();
  decoder.Decode(AsField(bytes));

  ASSERT_EQ(sets.size(), 1u);  // the plain cpu has no args
  std::vector<std::string> keys;
  for (const Arg& a : sets[0]) {
    keys.push_back(std::string(storage.Str(a.key)) + "=" + std::to_string(a.value.int_value));
  }
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "arm_cpu_implementer=0", "arm_cpu_architecture=0", "arm_cpu_variant=0",
                      "arm_cpu_part=3336", "arm_cpu_revision=0", "cpu_features.mte=1",
                      "cpu_features.mte3=1", "cpu_features.raw_bitmap=4611686018427387907"}));
  EXPECT_TRUE(storage.cpu.arg_set_id.IsNull(0));
  EXPECT_EQ(storage.cpu.arg_set_id[1], 0u);
  EXPECT_EQ(storage.GetStat("cpu_info_unknown_cpu_features"), 1);
}

}  // namespace
}  // namespace tw
