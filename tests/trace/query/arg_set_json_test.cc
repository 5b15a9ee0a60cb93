// __intrinsic_arg_set_to_json: the JSON writer (arg_set_json.h) and the SQL function.

#include "libs/trace/query/arg_set_json.h"

#include "gtest/gtest.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using Kind = ArgJsonEntry::Kind;

ArgJsonEntry Int(std::string key, int64_t v, Kind kind = Kind::kInt) {
  ArgJsonEntry e;
  e.key = std::move(key);
  e.kind = kind;
  e.int_value = v;
  return e;
}
ArgJsonEntry Str(std::string key, std::string v, Kind kind = Kind::kString) {
  ArgJsonEntry e;
  e.key = std::move(key);
  e.kind = kind;
  e.string_value = std::move(v);
  return e;
}
ArgJsonEntry Real(std::string key, double v) {
  ArgJsonEntry e;
  e.key = std::move(key);
  e.kind = Kind::kReal;
  e.real_value = v;
  return e;
}

TEST(ArgSetJsonTest, NestsDottedKeysKeepingArrivalOrder) {
  EXPECT_EQ(ArgSetToJson({Str("gpu.name", "mali"), Int("gpu.clock.max", 900), Int("cpu", 3),
                          Int("gpu.clock.min", 100)}),
            R"({"gpu":{"name":"mali","clock":{"max":900,"min":100}},"cpu":3})");
}

TEST(ArgSetJsonTest, IndexedKeysBecomeArraysOfValuesOrObjects) {
  EXPECT_EQ(ArgSetToJson({Int("frames[0]", 7), Int("frames[1]", 9), Str("layers[0].name", "a"),
                          Int("layers[0].z", 1), Str("layers[1].name", "b"),
                          Int("grid[0][1]", 5)}),
            R"({"frames":[7,9],"layers":[{"name":"a","z":1},{"name":"b"}],"grid":[[null,5]]})");
}

TEST(ArgSetJsonTest, EachValueTypeIsWrittenAsJson) {
  EXPECT_EQ(ArgSetToJson({Int("i", -5), Int("u", -1, Kind::kUint), Int("t", 1, Kind::kBool),
                          Int("f", 0, Kind::kBool), Int("p", 0xbeef, Kind::kPointer),
                          Real("r", 0.25), Real("third", 1.0 / 3), Str("s", "say \"hi\"\n"),
                          Str("j", "{\"x\":[1]}", Kind::kJson), ArgJsonEntry{"n"}}),
            R"({"i":-5,"u":18446744073709551615,"t":true,"f":false,"p":"0xbeef","r":0.25,)"
            R"("third":0.3333333333333333,"s":"say \"hi\"\n","j":{"x":[1]},"n":null})");
  EXPECT_EQ(ArgSetToJson({}), "{}");
}

TEST(ArgSetJsonTest, TheSqlFunctionReadsTheArgsTable) {
  auto storage = testing::MakeSmallTrace();
  auto db = testing::OpenOrDie(storage.get());
  ASSERT_TRUE(db);
  EXPECT_EQ(testing::Scalar(*db, "SELECT __intrinsic_arg_set_to_json(1)"),
            R"({"frame_id":42,"layer":"app#0","ratio":0.5,"debug":{"visible":true},)"
            R"("big":18446744073709551615,"ptr":"0xff"})");
  EXPECT_EQ(testing::Rows(*db, "SELECT __intrinsic_arg_set_to_json(NULL),"
                               " __intrinsic_arg_set_to_json(12345)"),
            (std::vector<std::vector<std::string>>{{"NULL", "NULL"}}));
}

}  // namespace
}  // namespace tw
