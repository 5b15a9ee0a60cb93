#include "libs/agent/caching_skill_runner.h"

#include "absl/strings/str_cat.h"

namespace tw::agent {

std::string CachingSkillRunner::Key(const std::string& skill,
                                    const std::map<std::string, SqlValue>& inputs) {
  // Length-prefixed parts with type tags: no two different calls share a key.
  std::string key = absl::StrCat(skill.size(), ":", skill);
  for (const auto& [name, v] : inputs) {
    absl::StrAppend(&key, "|", name.size(), ":", name, "=");
    switch (v.type) {
      case SqlValue::Type::kNull: key += "n"; break;
      case SqlValue::Type::kInt: absl::StrAppend(&key, "i", v.int_value); break;
      case SqlValue::Type::kDouble: absl::StrAppend(&key, "d", v.double_value); break;
      case SqlValue::Type::kString:
        absl::StrAppend(&key, "s", v.string_value.size(), ":", v.string_value);
        break;
    }
  }
  return key;
}

skills::SkillRunResult CachingSkillRunner::Run(const std::string& skill,
                                               const std::map<std::string, SqlValue>& inputs) {
  const std::string key = Key(skill, inputs);
  auto it = results_.find(key);
  if (it != results_.end()) return it->second;
  skills::SkillRunResult result = inner_.Run(skill, inputs);
  results_.emplace(key, result);
  return result;
}

bool CachingSkillRunner::Cached(const std::string& skill,
                                const std::map<std::string, SqlValue>& inputs) const {
  return results_.count(Key(skill, inputs)) > 0;
}

}  // namespace tw::agent
