#pragma once
// Which scenes a diagnosis analyses, from the question and the trace: the question's scene
// (classified, or forced), its intent, and every scene's signal.
// - A general or unclassified question analyses the scenes whose signals show a problem (most
//   important first), then the general overview of the trace.
// - A specific question analyses its scene; when that scene shows no problem (or the trace has
//   no data for it) while others do, it says so and analyses those too. An ambiguous question
//   also analyses the runner-up scene when that one shows a problem.
// - A forced scene (--scene) is analysed alone.

#include <string>
#include <vector>

#include "libs/agent/scene_signals.h"
#include "libs/strategy/question_reader.h"
#include "libs/strategy/scene_classifier.h"

namespace tw::agent {

struct ScenePlan {
  std::string primary;  // the question's scene ("general" for a general question)
  // Scenes to analyse, in order, each with why.
  struct Entry {
    std::string scene;
    std::string reason;
  };
  std::vector<Entry> scenes;
  bool Has(const std::string& scene) const;
};

// At most this many scenes besides the question's own are looked at.
inline constexpr size_t kMaxExtraScenes = 3;

ScenePlan PlanScenes(const strategy::SceneMatch& match, bool forced,
                     const std::vector<SceneSignalReading>& signals);

}  // namespace tw::agent
