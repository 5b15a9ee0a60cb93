#pragma once
// A single SQL result cell, owned (results outlive the statement that produced them).

#include <cstdint>
#include <string>
#include <vector>

namespace tw {

struct SqlValue {
  enum class Type : uint8_t { kNull, kInt, kDouble, kString };
  Type type = Type::kNull;
  int64_t int_value = 0;
  double double_value = 0;
  std::string string_value;

  static SqlValue Null() { return {}; }
  static SqlValue Int(int64_t v) { return {Type::kInt, v, 0, {}}; }
  static SqlValue Double(double v) { return {Type::kDouble, 0, v, {}}; }
  static SqlValue String(std::string v) { return {Type::kString, 0, 0, std::move(v)}; }
  bool is_null() const { return type == Type::kNull; }
};

struct QueryResult {
  std::vector<std::string> columns;
  std::vector<std::vector<SqlValue>> rows;
  bool truncated = false;     // a row or byte limit cut the result short
  int64_t elapsed_ns = 0;
  int statement_count = 0;    // statements executed (the result is the last one's)
  // With QueryOptions::every_output: the result set of every statement trace_processor's shell
  // prints, in order (the last statement's included when it has output).
  std::vector<QueryResult> outputs;
};

}  // namespace tw
