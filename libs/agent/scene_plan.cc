#include "libs/agent/scene_plan.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace tw::agent {
namespace {

const SceneSignalReading* Find(const std::vector<SceneSignalReading>& signals,
                               const std::string& scene) {
  for (const auto& s : signals) {
    if (s.scene == scene) return &s;
  }
  return nullptr;
}

}  // namespace

bool ScenePlan::Has(const std::string& scene) const {
  return std::any_of(scenes.begin(), scenes.end(), [&](const Entry& e) { return e.scene == scene; });
}

ScenePlan PlanScenes(const strategy::SceneMatch& match, bool forced,
                     const std::vector<SceneSignalReading>& signals) {
  ScenePlan plan;
  plan.primary = match.scene;
  if (forced) {
    plan.scenes.push_back({match.scene, "the scene was chosen explicitly"});
    return plan;
  }
  // Signals come in priority order: the most important problems first.
  std::vector<const SceneSignalReading*> problems;
  for (const auto& s : signals) {
    if (s.problem) problems.push_back(&s);
  }
  if (match.scene == "general") {
    for (const SceneSignalReading* p : problems) {
      if (plan.scenes.size() >= kMaxExtraScenes) break;
      plan.scenes.push_back({p->scene, absl::StrCat("the trace shows a problem: ", p->summary)});
    }
    plan.scenes.push_back({"general", "a general question gets the trace's facts"});
    return plan;
  }
  plan.scenes.push_back({match.scene, match.matched_by == "pattern" || match.matched_by == "keyword"
                                          ? absl::StrCat("the question is about it (", match.matched_by,
                                                         " '", match.evidence, "')")
                                          : "the question is about it"});
  const SceneSignalReading* own = Find(signals, match.scene);
  const bool own_problem = own == nullptr || own->problem;
  if (match.ambiguous && !match.runner_up.empty()) {
    const SceneSignalReading* runner_up = Find(signals, match.runner_up);
    if (runner_up && runner_up->problem) {
      plan.scenes.push_back({runner_up->scene,
                             absl::StrCat("the question could also mean it, and the trace shows a "
                                          "problem there: ", runner_up->summary)});
    }
  }
  if (!own_problem) {
    size_t extra = 0;
    for (const SceneSignalReading* p : problems) {
      if (extra >= kMaxExtraScenes - 1) break;
      if (plan.Has(p->scene)) continue;
      plan.scenes.push_back(
          {p->scene, absl::StrCat(own->has_data ? "the question's scene shows no problem"
                                                : "the trace has no data for the question's scene",
                                  "; this one does: ", p->summary)});
      ++extra;
    }
  }
  return plan;
}

}  // namespace tw::agent
