// The in-memory JSON walker: members in order, unescaping, number literals kept as written,
// and damage reported rather than guessed around.

#include "libs/trace/importers/common/json_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace tw {
namespace {

std::vector<std::string> Members(std::string_view text, bool* ok) {
  std::vector<std::string> out;
  *ok = ForEachJsonMember(text, [&](std::string_view key, const JsonValue& v) {
    out.push_back(std::string(key) + "=" + std::string(v.text));
    return true;
  });
  return out;
}

TEST(JsonValueTest, WalksMembersInOrderKeepingLiteralsAndRawContainers) {
  bool ok = false;
  const auto m = Members(R"( {"a": 1.50, "b" : "x", "c": {"d": [1, "]"]}, "e": null} )", &ok);
  ASSERT_TRUE(ok);
  EXPECT_EQ(m, (std::vector<std::string>{"a=1.50", "b=x", R"(c={"d": [1, "]"]})", "e="}));
}

TEST(JsonValueTest, UnescapesStringsIncludingSurrogatePairs) {
  std::string got;
  ASSERT_TRUE(ForEachJsonMember(R"({"k\"ey": "a\nb\u00e9\ud83d\ude00\/"})",
                                [&](std::string_view key, const JsonValue& v) {
                                  got = std::string(key) + "|" + std::string(v.text);
                                  return true;
                                }));
  EXPECT_EQ(got, "k\"ey|a\nb\xc3\xa9\xf0\x9f\x98\x80/");
}

TEST(JsonValueTest, LoneSurrogateBecomesReplacementCharacter) {
  JsonValue v;
  std::string scratch;
  ASSERT_TRUE(ParseJsonValue(R"("\ud800x")", &v, &scratch));
  EXPECT_EQ(v.text, "\xef\xbf\xbdx");
}

TEST(JsonValueTest, RejectsDamage) {
  bool ok = true;
  for (std::string_view bad : {"", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{\"a\":1 \"b\":2}",
                               "{\"a\":[1,2}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":tru}",
                               "{\"a\":\"\\x\"}", "[1]", "{} x"}) {
    Members(bad, &ok);
    EXPECT_FALSE(ok) << bad;
  }
}

TEST(JsonValueTest, StopsEarlyWhenAsked) {
  int seen = 0;
  EXPECT_TRUE(ForEachJsonMember(R"({"a":1,"b":2,"c":)", [&](std::string_view, const JsonValue&) {
    return ++seen < 2;
  }));
  EXPECT_EQ(seen, 2);
}

TEST(JsonValueTest, ElementsSkipNothing) {
  std::vector<std::string> got;
  ASSERT_TRUE(ForEachJsonElement(R"([1, "two", null, [3], {"x": 4}])", [&](const JsonValue& v) {
    got.push_back(std::string(v.text));
    return true;
  }));
  EXPECT_EQ(got, (std::vector<std::string>{"1", "two", "", "[3]", R"({"x": 4})"}));
}

TEST(JsonValueTest, DeepNestingIsDamageNotRecursion) {
  const std::string deep = "{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  bool ok = true;
  Members(deep, &ok);
  EXPECT_FALSE(ok);
}

TEST(JsonValueTest, NumberConversions) {
  EXPECT_EQ(JsonNumberToInt64("-42"), -42);
  EXPECT_EQ(JsonNumberToInt64("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(JsonNumberToInt64("9223372036854775808"), std::nullopt);
  EXPECT_EQ(JsonNumberToInt64("1.0"), std::nullopt);
  EXPECT_EQ(JsonNumberToUint64("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(JsonNumberToDouble("1.5e3"), 1500.0);
  EXPECT_EQ(JsonNumberToDouble("1e999"), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(*JsonNumberToDouble("NaN")));
  EXPECT_EQ(JsonNumberToDouble("x"), std::nullopt);
}

}  // namespace
}  // namespace tw
