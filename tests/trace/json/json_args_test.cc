// "args" objects flattened into rows as trace_processor names them.

#include "libs/trace/importers/common/json_args.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tw {
namespace {

// "flat_key|key=value" per arg, values typed: i:int r:real s:string b:bool.
std::vector<std::string> Flatten(std::string_view object, bool* ok) {
  TraceStorage storage;
  std::vector<Arg> args;
  *ok = FlattenJsonArgs(object, "args", &storage, &args);
  std::vector<std::string> out;
  for (const Arg& a : args) {
    std::string s = std::string(storage.Str(a.flat_key)) + "|" + std::string(storage.Str(a.key)) + "=";
    switch (a.value.type) {
      case ArgValue::Type::kInt: s += "i:" + std::to_string(a.value.int_value); break;
      case ArgValue::Type::kReal: s += "r:" + std::to_string(a.value.real_value); break;
      case ArgValue::Type::kString: s += "s:" + std::string(storage.Str(a.value.string_value)); break;
      case ArgValue::Type::kBool: s += std::string("b:") + (a.value.int_value ? "true" : "false"); break;
      default: s += "?"; break;
    }
    out.push_back(s);
  }
  return out;
}

TEST(JsonArgsTest, NestedObjectsJoinKeysAndArraysIndexOnlyTheKey) {
  bool ok = false;
  const auto got = Flatten(
      R"({"a": 1, "b": {"c": "x", "d": [true, null, 2.5, {"e": -3}]}, "n": null, "o": {}, "p": []})",
      &ok);
  EXPECT_TRUE(ok);
  EXPECT_EQ(got, (std::vector<std::string>{
                     "args.a|args.a=i:1",
                     "args.b.c|args.b.c=s:x",
                     "args.b.d|args.b.d[0]=b:true",
                     "args.b.d|args.b.d[1]=r:2.500000",  // the null took no index
                     "args.b.d.e|args.b.d[2].e=i:-3",
                 }));
}

TEST(JsonArgsTest, IntegersStayIntegersOtherNumbersBecomeReal) {
  bool ok = false;
  const auto got = Flatten(R"({"i": 9223372036854775807, "big": 9223372036854775808, "f": 1e2})", &ok);
  EXPECT_TRUE(ok);
  EXPECT_EQ(got, (std::vector<std::string>{"args.i|args.i=i:9223372036854775807",
                                           "args.big|args.big=r:9223372036854775808.000000",
                                           "args.f|args.f=r:100.000000"}));
}

TEST(JsonArgsTest, DamageKeepsWhatCameBefore) {
  bool ok = true;
  const auto got = Flatten(R"({"a": 1, "b": {"c": 2, "d": tru}, "e": 3})", &ok);
  EXPECT_FALSE(ok);
  EXPECT_EQ(got, (std::vector<std::string>{"args.a|args.a=i:1", "args.b.c|args.b.c=i:2"}));
}

TEST(JsonArgsTest, VeryDeepContainersAreKeptAsTextNotRecursedInto) {
  std::string deep = "{\"a\":";
  for (int i = 0; i < 40; ++i) deep += "{\"k\":";
  deep += "1";
  for (int i = 0; i < 40; ++i) deep += "}";
  deep += "}";
  bool ok = false;
  const auto got = Flatten(deep, &ok);
  EXPECT_TRUE(ok);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_NE(got[0].find("=s:{\"k\":"), std::string::npos) << got[0];
}

}  // namespace
}  // namespace tw
