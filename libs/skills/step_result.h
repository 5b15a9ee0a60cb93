#pragma once
// What one skill step produced: typed columns, rows, and where they came from (skill, step, SQL,
// bound parameters, elapsed time) plus an artifact id others can cite. This is the in-memory form
// of the DataEnvelope of protos/tracewise/v1/common.proto (see envelope_proto.h for the mapping).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "libs/trace/query/sql_value.h"

namespace tw::skills {

// Column types a step's display may declare (DESIGN.md §4).
enum class ColumnType { kString, kNumber, kBool, kDurationNs, kTimestampNs, kPercent, kBytes, kEnum };
const char* ColumnTypeName(ColumnType type);
bool ParseColumnType(std::string_view name, ColumnType* type);

struct ResultColumn {
  std::string name;
  ColumnType type = ColumnType::kString;
  std::string unit;  // e.g. "ms", "%", "Hz"; empty if none
};

enum class StepStatus {
  kOk,            // ran; rows may be empty
  kSkipped,       // its `when:` was false, or what it iterates over did not run
  kFailed,        // an error; for an optional step the skill goes on
  kNotSupported,  // the trace lacks what the step needs (a called skill's requirements)
};
const char* StepStatusName(StepStatus status);

struct StepResult {
  std::string skill;  // the skill that ran the step
  std::string step;   // step id; for_each iterations are "<id>[<i>]"
  std::string kind;   // sql | skill | for_each | diagnose
  StepStatus status = StepStatus::kOk;
  std::string message;  // why skipped / failed / not supported
  std::vector<ResultColumn> columns;
  std::vector<std::vector<SqlValue>> rows;
  bool truncated = false;
  // Provenance.
  std::string sql;  // empty for non-SQL steps
  std::vector<std::pair<std::string, SqlValue>> parameters;
  int64_t elapsed_ns = 0;
  std::string artifact_id;
  // Display hints copied from the step.
  std::string title;
  std::string level;  // summary | list | detail | hidden

  // Index of `name` in columns, or -1.
  int ColumnIndex(std::string_view name) const;
};

}  // namespace tw::skills
