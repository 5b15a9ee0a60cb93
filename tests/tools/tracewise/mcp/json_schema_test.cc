// The JSON Schema subset: each keyword enforced with a message that names the argument, and
// schemas using anything else refused at registration.

#include "tools/tracewise/mcp/json_schema.h"

#include <gtest/gtest.h>

namespace tw::mcp {
namespace {

const Json kQuerySchema = Json::parse(R"({
  "type": "object",
  "properties": {
    "trace_id": {"type": "string", "minLength": 1},
    "sql": {"type": "string", "minLength": 1, "maxLength": 100},
    "max_rows": {"type": "integer", "minimum": 1, "maximum": 10000},
    "mode": {"type": "string", "enum": ["quick", "full", "auto"]},
    "params": {"type": "object", "additionalProperties": {"type": ["string", "number", "boolean"]}},
    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2}
  },
  "required": ["trace_id", "sql"],
  "additionalProperties": false
})");

std::vector<std::string> Problems(const std::string& args) {
  return ValidateJson(kQuerySchema, Json::parse(args));
}

TEST(JsonSchemaTest, AcceptsConformingValues) {
  EXPECT_TRUE(CheckSchemaSupported(kQuerySchema).ok());
  EXPECT_TRUE(Problems(R"({"trace_id":"t","sql":"SELECT 1"})").empty());
  EXPECT_TRUE(Problems(R"({"trace_id":"t","sql":"x","max_rows":5.0,"mode":"full",
                          "params":{"a":1,"b":"x","c":true},"tags":["a"]})").empty());
}

TEST(JsonSchemaTest, NamesEachProblem) {
  auto p = Problems(R"({"sql":5})");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0], "missing required property \"trace_id\"");
  EXPECT_EQ(p[1], "sql: must be a string, not an integer");
  EXPECT_EQ(Problems(R"({"trace_id":"","sql":"x"})")[0], "trace_id: must not be empty");
  EXPECT_EQ(Problems(R"({"trace_id":"t","sql":"x","max_rows":0})")[0], "max_rows: must be at least 1");
  EXPECT_EQ(Problems(R"({"trace_id":"t","sql":"x","max_rows":20000})")[0],
            "max_rows: must be at most 10000");
  EXPECT_EQ(Problems(R"({"trace_id":"t","sql":"x","max_rows":2.5})")[0],
            "max_rows: must be an integer, not a number");
  EXPECT_EQ(Problems(R"({"trace_id":"t","sql":"x","mode":"deep"})")[0],
            "mode: must be one of \"quick\", \"full\", \"auto\", not \"deep\"");
  EXPECT_EQ(Problems(R"({"trace_id":"t","sql":"x","params":{"a":[1]}})")[0],
            "params.a: must be a string or a number or a boolean, not an array");
  EXPECT_EQ(Problems(R"({"trace_id":"t","sql":"x","tags":["a",1,"c"]})").size(), 2u);
  EXPECT_EQ(Problems(R"({"trace_id":"t","sql":"x","extra":1})")[0],
            "unknown property \"extra\" (expected: max_rows, mode, params, sql, tags, trace_id)");
  EXPECT_EQ(Problems(R"({"trace_id":"t","sql":")" + std::string(101, 'x') + R"("})")[0],
            "sql: must be at most 100 characters");
  EXPECT_EQ(ValidateJson(kQuerySchema, Json::array())[0], "must be an object, not an array");
}

TEST(JsonSchemaTest, CapsTheProblemsReported) {
  Json args = Json::object();
  for (int i = 0; i < 50; ++i) args["x" + std::to_string(i)] = i;
  EXPECT_EQ(ValidateJson(kQuerySchema, args, 5).size(), 5u);
}

TEST(JsonSchemaTest, RefusesKeywordsItDoesNotEnforce) {
  EXPECT_FALSE(CheckSchemaSupported(Json::parse(R"({"type":"object","oneOf":[]})")).ok());
  EXPECT_FALSE(CheckSchemaSupported(Json::parse(
      R"({"type":"object","properties":{"a":{"type":"string","pattern":"x"}}})")).ok());
  EXPECT_FALSE(CheckSchemaSupported(Json::parse(R"({"type":"strng"})")).ok());
  EXPECT_TRUE(CheckSchemaSupported(Json::parse(
      R"({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
          "description":"d","properties":{"a":{"type":"integer","default":3,"format":"int64"}}})")).ok());
}

}  // namespace
}  // namespace tw::mcp
