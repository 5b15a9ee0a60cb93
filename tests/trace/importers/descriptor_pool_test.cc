// DescriptorPool merging (as a trace's ExtensionDescriptors merge into the embedded pool) and
// TraceDescriptorPool's copy-on-write: descriptors a trace adds never reach the process pool.

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

#include "libs/trace/importers/proto/descriptor_pool.h"
#include "libs/trace/importers/proto/inflate_bytes.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/importers/proto/trace_descriptor_pool.h"

namespace tw {
namespace {

// descriptor.proto field numbers and values.
constexpr uint32_t kSetFile = 1;
constexpr uint32_t kFileName = 1, kFilePackage = 2, kFileMessage = 4, kFileEnum = 5,
                   kFileExtension = 7;
constexpr uint32_t kMsgName = 1, kMsgField = 2;
constexpr uint32_t kFieldName = 1, kFieldExtendee = 2, kFieldNumber = 3, kFieldLabel = 4,
                   kFieldType = 5, kFieldTypeName = 6;
constexpr uint32_t kLabelOptional = 1;
constexpr uint32_t kEnumName = 1, kEnumValue = 2;

proto::Writer Field(std::string_view name, uint32_t number, ProtoFieldDef::Type type,
                    std::string_view type_name = "") {
  proto::Writer f;
  f.String(kFieldName, name);
  f.Varint(kFieldNumber, number);
  f.Varint(kFieldLabel, kLabelOptional);
  f.Varint(kFieldType, type);
  if (!type_name.empty()) f.String(kFieldTypeName, type_name);
  return f;
}

proto::Writer Message(std::string_view name, std::initializer_list<proto::Writer> fields) {
  proto::Writer m;
  m.String(kMsgName, name);
  for (const proto::Writer& f : fields) m.Message(kMsgField, f);
  return m;
}

proto::Writer Enum(std::string_view name, std::initializer_list<std::pair<std::string, int>> v) {
  proto::Writer e;
  e.String(kEnumName, name);
  for (const auto& [value_name, number] : v) {
    proto::Writer value;
    value.String(1, value_name);
    value.Int(2, number);
    e.Message(kEnumValue, value);
  }
  return e;
}

std::string Set(std::string_view package, std::initializer_list<proto::Writer> messages,
                std::initializer_list<proto::Writer> enums = {},
                std::initializer_list<proto::Writer> extensions = {}) {
  proto::Writer file;
  file.String(kFileName, "test.proto");
  file.String(kFilePackage, package);
  for (const proto::Writer& m : messages) file.Message(kFileMessage, m);
  for (const proto::Writer& e : enums) file.Message(kFileEnum, e);
  for (const proto::Writer& x : extensions) file.Message(kFileExtension, x);
  proto::Writer set;
  set.Message(kSetFile, file);
  return set.Take();
}

std::string Gzip(const std::string& in) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&z, static_cast<uLong>(in.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// The embedded-pool stand-in: package "our.pkg", with Perfetto's package aliased onto it.
DescriptorPool BasePool() {
  DescriptorPool pool;
  pool.AliasPackage(".perfetto.protos", ".our.pkg");
  EXPECT_TRUE(pool.AddFileDescriptorSet(
      Set("our.pkg",
          {Message("Event", {Field("name", 1, ProtoFieldDef::kString)}),
           Message("Scope", {Field("type", 1, ProtoFieldDef::kEnum, ".our.pkg.Kind"),
                             Field("task_id", 2, ProtoFieldDef::kInt64)})},
          {Enum("Kind", {{"KIND_A", 1}})})));
  return pool;
}

TEST(DescriptorPool, MergeAddsNewFieldsAndKeepsKnownOnes) {
  DescriptorPool pool = BasePool();
  const std::optional<uint32_t> scope_index = pool.FindMessageIndex(".our.pkg.Scope");
  ASSERT_TRUE(scope_index);
  // The trace names the same message in Perfetto's package, retypes field 2 (ignored: a
  // known number keeps its definition) and adds fields 3 and 4.
  ASSERT_TRUE(pool.AddFileDescriptorSet(
      Set("perfetto.protos",
          {Message("Scope", {Field("renamed", 2, ProtoFieldDef::kString),
                             Field("parent_id", 3, ProtoFieldDef::kInt64),
                             Field("kind2", 4, ProtoFieldDef::kEnum, ".perfetto.protos.Kind")})},
          {Enum("Kind", {{"KIND_B", 2}})})));
  EXPECT_EQ(pool.FindMessageIndex(".perfetto.protos.Scope"), scope_index);
  const ProtoMessageDef& scope = pool.messages()[*scope_index];
  ASSERT_NE(scope.Field(2), nullptr);
  EXPECT_EQ(scope.Field(2)->name, "task_id");
  EXPECT_EQ(scope.Field(2)->type, ProtoFieldDef::kInt64);
  ASSERT_NE(scope.Field(3), nullptr);
  EXPECT_EQ(scope.Field(3)->name, "parent_id");
  ASSERT_NE(scope.Field(4), nullptr);
  EXPECT_GE(scope.Field(4)->enum_index, 0);  // resolved through the alias
  EXPECT_EQ(pool.EnumValueName(".our.pkg.Kind", 1), "KIND_A");
  EXPECT_EQ(pool.EnumValueName(".perfetto.protos.Kind", 2), "KIND_B");
}

TEST(DescriptorPool, ExtensionsJoinTheirMessage) {
  DescriptorPool pool = BasePool();
  proto::Writer ext = Field("payload", 1000, ProtoFieldDef::kMessage, ".other.Payload");
  ext.String(kFieldExtendee, ".perfetto.protos.Event");
  ASSERT_TRUE(pool.AddFileDescriptorSet(
      Set("other", {Message("Payload", {Field("value", 1, ProtoFieldDef::kInt32)})}, {},
          {ext})));
  const ProtoMessageDef* event = pool.FindMessage(".our.pkg.Event");
  ASSERT_NE(event, nullptr);
  const ProtoFieldDef* payload = event->Field(1000);
  ASSERT_NE(payload, nullptr);
  EXPECT_TRUE(payload->is_extension);
  EXPECT_EQ(payload->name, "payload");
  ASSERT_GE(payload->message_index, 0);
  EXPECT_EQ(pool.messages()[static_cast<size_t>(payload->message_index)].full_name,
            ".other.Payload");
}

TEST(DescriptorPool, MalformedSetIsReported) {
  DescriptorPool pool = BasePool();
  EXPECT_FALSE(pool.AddFileDescriptorSet(std::string("\x0a\x7f\x01", 3)));
  // What the pool knew stays usable.
  EXPECT_NE(pool.FindMessage(".our.pkg.Event"), nullptr);
}

TEST(TraceDescriptorPool, CopiesOnFirstWriteAndLeavesTheProcessPoolAlone) {
  const DescriptorPool base = BasePool();
  TraceDescriptorPool trace(base);
  EXPECT_FALSE(trace.extended());
  EXPECT_EQ(&trace.pool(), &base);  // read in place until the trace adds something

  proto::Writer descriptor;
  descriptor.Bytes(1, Set("perfetto.protos",
                          {Message("Scope", {Field("parent_id", 3, ProtoFieldDef::kInt64)})}));
  ASSERT_TRUE(trace.AddExtensionDescriptor(descriptor.Take()));
  EXPECT_TRUE(trace.extended());
  EXPECT_NE(&trace.pool(), &base);
  EXPECT_NE(trace.pool().FindMessage(".our.pkg.Scope")->Field(3), nullptr);
  EXPECT_EQ(base.FindMessage(".our.pkg.Scope")->Field(3), nullptr);

  // Another trace over the same process pool sees none of it.
  TraceDescriptorPool other(base);
  EXPECT_EQ(other.pool().FindMessage(".our.pkg.Scope")->Field(3), nullptr);
}

TEST(TraceDescriptorPool, ReadsGzippedExtensionSets) {
  const DescriptorPool base = BasePool();
  const std::string set =
      Set("perfetto.protos", {Message("Scope", {Field("parent_id", 3, ProtoFieldDef::kInt64)})});
  const std::string gz = Gzip(set);
  ASSERT_EQ(InflateBytes(gz, Compression::kGzip), set);
  TraceDescriptorPool trace(base);
  proto::Writer descriptor;
  descriptor.Bytes(2, gz);  // extension_set_gzip
  ASSERT_TRUE(trace.AddExtensionDescriptor(descriptor.Take()));
  EXPECT_NE(trace.pool().FindMessage(".our.pkg.Scope")->Field(3), nullptr);

  TraceDescriptorPool broken(base);
  proto::Writer bad;
  bad.Bytes(2, "not gzip");
  EXPECT_FALSE(broken.AddExtensionDescriptor(bad.Take()));
}

}  // namespace
}  // namespace tw
