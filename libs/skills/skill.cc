#include "libs/skills/skill.h"

#include <cerrno>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace tw::skills {

std::string SourceLocation::ToString() const {
  if (line <= 0) return file;
  return absl::StrCat(file, ":", line, column > 0 ? absl::StrCat(":", column) : "");
}

const char* InputTypeName(InputType type) {
  switch (type) {
    case InputType::kString:
      return "string";
    case InputType::kInt:
      return "int";
    case InputType::kTimestampNs:
      return "timestamp_ns";
    case InputType::kDurationNs:
      return "duration_ns";
    case InputType::kBool:
      return "bool";
    case InputType::kEnum:
      return "enum";
  }
  return "string";
}

absl::StatusOr<SqlValue> ConvertInputValue(const SkillInput& input, std::string_view text) {
  const std::string s(text);
  switch (input.type) {
    case InputType::kString:
      return SqlValue::String(s);
    case InputType::kEnum:
      for (const auto& v : input.values) {
        if (v == s) return SqlValue::String(s);
      }
      return absl::InvalidArgumentError(absl::StrCat("input '", input.name, "': '", s,
                                                     "' is not one of its values"));
    case InputType::kBool: {
      const std::string lower = absl::AsciiStrToLower(s);
      if (lower == "true" || lower == "1" || lower == "yes") return SqlValue::Int(1);
      if (lower == "false" || lower == "0" || lower == "no") return SqlValue::Int(0);
      return absl::InvalidArgumentError(
          absl::StrCat("input '", input.name, "': '", s, "' is not a bool (true/false)"));
    }
    case InputType::kInt:
    case InputType::kTimestampNs:
    case InputType::kDurationNs: {
      errno = 0;
      char* end = nullptr;
      const long long v = std::strtoll(s.c_str(), &end, 10);
      if (s.empty() || errno == ERANGE || end != s.c_str() + s.size()) {
        return absl::InvalidArgumentError(absl::StrCat("input '", input.name, "': '", s,
                                                       "' is not an integer (",
                                                       InputTypeName(input.type), ")"));
      }
      return SqlValue::Int(v);
    }
  }
  return absl::InvalidArgumentError("unknown input type");
}

std::optional<Severity> ParseSeverity(std::string_view name) {
  if (name == "info") return Severity::kInfo;
  if (name == "notice") return Severity::kNotice;
  if (name == "warning") return Severity::kWarning;
  if (name == "critical") return Severity::kCritical;
  return std::nullopt;
}

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kInfo:
      return "info";
    case Severity::kNotice:
      return "notice";
    case Severity::kWarning:
      return "warning";
    case Severity::kCritical:
      return "critical";
  }
  return "info";
}

const char* StepKindName(Step::Kind kind) {
  switch (kind) {
    case Step::Kind::kSql:
      return "sql";
    case Step::Kind::kSkill:
      return "skill";
    case Step::Kind::kForEach:
      return "for_each";
    case Step::Kind::kDiagnose:
      return "diagnose";
  }
  return "sql";
}

const SkillInput* Skill::FindInput(std::string_view name) const {
  for (const auto& i : inputs) {
    if (i.name == name) return &i;
  }
  return nullptr;
}

const Step* Skill::FindStep(std::string_view id) const {
  for (const auto& s : steps) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

}  // namespace tw::skills
