#pragma once
// A SkillRunner that remembers what it ran: the same skill with the same inputs returns the
// first run's result. One diagnosis may look at several scenes whose procedures share probes and
// steps (focus_app, trace_overview, cpu_frequency, ...); each runs once. A cache lives for one
// analysis of one trace, never longer.

#include <map>
#include <string>

#include "libs/agent/skill_runner.h"

namespace tw::agent {

class CachingSkillRunner : public SkillRunner {
 public:
  explicit CachingSkillRunner(SkillRunner& inner) : inner_(inner) {}

  skills::SkillRunResult Run(const std::string& skill,
                             const std::map<std::string, SqlValue>& inputs) override;
  bool HasSkill(const std::string& skill) const override { return inner_.HasSkill(skill); }
  bool TakesInput(const std::string& skill, const std::string& input) const override {
    return inner_.TakesInput(skill, input);
  }

  // Whether Run(skill, inputs) would come from the cache.
  bool Cached(const std::string& skill, const std::map<std::string, SqlValue>& inputs) const;

 private:
  static std::string Key(const std::string& skill, const std::map<std::string, SqlValue>& inputs);

  SkillRunner& inner_;
  std::map<std::string, skills::SkillRunResult> results_;
};

}  // namespace tw::agent
