#pragma once
// agent::SkillRunner over a skill-engine service, for one trace: the offline analyst and the
// agent run skills remotely exactly as in process. Events of the invoked skill (depth 0) become
// the SkillRunResult's steps; findings of called skills are kept too.

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "libs/agent/skill_runner.h"

namespace tw::rpc {

class GrpcSkillRunner : public agent::SkillRunner {
 public:
  // Calls carry `authorization` when given, else the thread's caller or the process's own token
  // (CurrentAuthorization, channel_security.h).
  GrpcSkillRunner(const std::string& target, std::string trace_id);
  GrpcSkillRunner(const std::string& target, std::string trace_id, std::string authorization);
  ~GrpcSkillRunner() override;

  skills::SkillRunResult Run(const std::string& skill,
                             const std::map<std::string, SqlValue>& inputs) override;
  bool HasSkill(const std::string& skill) const override;
  // From the engine's DescribeSkill, asked once per skill.
  bool TakesInput(const std::string& skill, const std::string& input) const override;

 private:
  struct Stub;
  std::unique_ptr<Stub> stub_;
  std::string trace_id_;
  mutable std::mutex mu_;
  mutable std::set<std::string> names_;  // fetched once with ListSkills
  mutable bool names_loaded_ = false;
  mutable std::map<std::string, std::set<std::string>> inputs_;  // by skill
};

}  // namespace tw::rpc
