#include "libs/skills/step_result.h"

namespace tw::skills {
namespace {

struct ColumnTypeEntry {
  ColumnType type;
  const char* name;
};
constexpr ColumnTypeEntry kColumnTypes[] = {
    {ColumnType::kString, "string"},      {ColumnType::kNumber, "number"},
    {ColumnType::kBool, "bool"},          {ColumnType::kDurationNs, "duration_ns"},
    {ColumnType::kTimestampNs, "timestamp_ns"}, {ColumnType::kPercent, "percent"},
    {ColumnType::kBytes, "bytes"},        {ColumnType::kEnum, "enum"},
};

}  // namespace

const char* ColumnTypeName(ColumnType type) {
  for (const auto& e : kColumnTypes) {
    if (e.type == type) return e.name;
  }
  return "string";
}

bool ParseColumnType(std::string_view name, ColumnType* type) {
  for (const auto& e : kColumnTypes) {
    if (name == e.name) {
      *type = e.type;
      return true;
    }
  }
  return false;
}

const char* StepStatusName(StepStatus status) {
  switch (status) {
    case StepStatus::kOk:
      return "ok";
    case StepStatus::kSkipped:
      return "skipped";
    case StepStatus::kFailed:
      return "failed";
    case StepStatus::kNotSupported:
      return "not_supported";
  }
  return "unknown";
}

int StepResult::ColumnIndex(std::string_view name) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace tw::skills
