// A trace's own ExtensionDescriptor packets: fields and extensions they define (and the
// embedded schema does not) become args of that trace's events — and of no other trace's,
// however the traces' loads interleave.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "libs/trace/importers/proto/schema_pools.h"
#include "tests/trace/track_event/test_packets.h"

namespace tw::testing {
namespace {

using ::testing::ElementsAre;

constexpr uint32_t kBlinkTaskScope = 1043;  // a ChromeTrackEvent extension the schema knows
constexpr uint32_t kNewField = 9;           // a BlinkTaskScope field only the trace defines
constexpr uint32_t kNewExtension = 9901;    // a TrackEvent extension only the trace defines

// descriptor.proto: FieldDescriptorProto / DescriptorProto / FileDescriptorProto fields.
proto::Writer FieldDef(std::string_view name, uint32_t number, uint32_t type,
                       std::string_view type_name = "", std::string_view extendee = "") {
  proto::Writer f;
  f.String(1, name);
  if (!extendee.empty()) f.String(2, extendee);
  f.Varint(3, number);
  f.Varint(4, 1);  // LABEL_OPTIONAL
  f.Varint(5, type);
  if (!type_name.empty()) f.String(6, type_name);
  return f;
}

// The descriptor a producer would write: BlinkTaskScope as it knows it (one field more than
// the embedded schema) and a payload extension of TrackEvent, in Perfetto's package.
Packet ExtensionDescriptorPacket() {
  constexpr uint32_t kInt64 = 3, kInt32 = 5, kMessage = 11;
  proto::Writer scope;
  scope.String(1, "BlinkTaskScope");
  scope.Message(2, FieldDef("scope_task_id", 2, kInt64));
  scope.Message(2, FieldDef("origin_task_id", kNewField, kInt64));
  proto::Writer payload;
  payload.String(1, "ProducerPayload");
  payload.Message(2, FieldDef("value", 1, kInt32));
  proto::Writer file;
  file.String(1, "producer/extensions.proto");
  file.String(2, "perfetto.protos");
  file.Message(4, scope);
  file.Message(4, payload);
  file.Message(7, FieldDef("producer_payload", kNewExtension, kMessage,
                           ".perfetto.protos.ProducerPayload", ".perfetto.protos.TrackEvent"));
  proto::Writer set;
  set.Message(1, file);
  proto::Writer descriptor;
  descriptor.Message(1, set);  // ExtensionDescriptor.extension_set
  Packet p(1, std::nullopt);
  p.Field(tp::kExtensionDescriptor, descriptor);
  return p;
}

Packet EventPacket() {
  proto::Writer scope;
  scope.Int(2, 11);         // scope_task_id
  scope.Int(kNewField, 7);  // origin_task_id
  proto::Writer payload;
  payload.Int(1, 42);
  proto::Writer e = Event(kInstant, "task", 1);
  e.Message(kBlinkTaskScope, scope);
  e.Message(kNewExtension, payload);
  Packet p(1, 10);
  p.Event(e);
  return p;
}

constexpr std::string_view kArgs =
    "SELECT a.key, a.display_value FROM slice s JOIN args a USING (arg_set_id) ORDER BY a.key";

std::string WithDescriptor() {
  return Trace({Packet(1, 0).ClearedState().Descriptor(NamedTrack(1, "t")),
                ExtensionDescriptorPacket(), EventPacket()});
}
std::string WithoutDescriptor() {
  return Trace({Packet(1, 0).ClearedState().Descriptor(NamedTrack(1, "t")), EventPacket()});
}

TEST(ExtensionDescriptors, TheTracesDescriptorsNameItsFields) {
  EXPECT_THAT(Rows(WithDescriptor(), kArgs),
              ElementsAre(R"("blink_task_scope.origin_task_id","7")",
                          R"("blink_task_scope.scope_task_id","11")",
                          R"("producer_payload.value","42")"));
}

TEST(ExtensionDescriptors, AnotherTraceDoesNotSeeThem) {
  ASSERT_THAT(Rows(WithDescriptor(), kArgs), ::testing::SizeIs(3));
  // Loaded after: the unknown field and extension are skipped, as without any descriptor.
  EXPECT_THAT(Rows(WithoutDescriptor(), kArgs),
              ElementsAre(R"("blink_task_scope.scope_task_id","11")"));
  const ProtoMessageDef* scope =
      TrackEventDescriptors().FindMessage(".perfetto.protos.BlinkTaskScope");
  ASSERT_NE(scope, nullptr);
  EXPECT_EQ(scope->Field(kNewField), nullptr);
}

TEST(ExtensionDescriptors, ConcurrentLoadsStayIndependent) {
  const std::string with = WithDescriptor(), without = WithoutDescriptor();
  std::vector<std::vector<std::string>> results(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < results.size(); ++i) {
    threads.emplace_back([&, i] { results[i] = Rows(i % 2 ? without : with, kArgs); });
  }
  for (std::thread& t : threads) t.join();
  for (size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].size(), i % 2 ? 1u : 3u) << "load " << i;
  }
}

}  // namespace
}  // namespace tw::testing
