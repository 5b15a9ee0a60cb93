#pragma once
// Everything under `strategies/`: scene strategies (`*.strategy.md`), the context probes every
// analysis runs first (`context.md`), how questions are read (`questions.md`), prompt templates
// (`templates/*.md`) and knowledge topics (`knowledge/*.md`), loaded once and read-only after.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/strategy/knowledge_base.h"
#include "libs/strategy/prompt_templates.h"
#include "libs/strategy/question_reader.h"
#include "libs/strategy/scene_classifier.h"
#include "libs/strategy/strategy.h"

namespace tw::strategy {

class StrategyLibrary {
 public:
  // Loads `dir`. Every file must parse; the first error (file:line) fails the load, and so do
  // duplicate scenes or a missing `general` fallback.
  static absl::StatusOr<StrategyLibrary> Load(const std::string& dir);

  const std::vector<Strategy>& strategies() const { return strategies_; }
  const Strategy* Find(const std::string& scene) const;
  const PromptTemplate* FindTemplate(const std::string& name) const;
  const std::vector<PromptTemplate>& templates() const { return templates_; }
  const KnowledgeBase& knowledge() const { return knowledge_; }
  const SceneClassifier& classifier() const { return classifier_; }
  const QuestionReader& questions() const { return questions_; }
  // Probes run before any scene's procedure (`context.md`); empty when the file is absent.
  const std::vector<ProcedureStep>& context_probes() const { return context_probes_; }

 private:
  StrategyLibrary(std::vector<Strategy> strategies, std::vector<PromptTemplate> templates,
                  KnowledgeBase knowledge, const QuestionLexicon& questions,
                  std::vector<ProcedureStep> context_probes);

  std::vector<Strategy> strategies_;
  std::vector<PromptTemplate> templates_;
  KnowledgeBase knowledge_;
  SceneClassifier classifier_;
  QuestionReader questions_;
  std::vector<ProcedureStep> context_probes_;
};

// The strategies directory of this checkout/installation: $TRACEWISE_STRATEGIES_DIR, else the
// `strategies/` folder found by walking up from the current directory and from the executable.
std::string DefaultStrategiesDir();

}  // namespace tw::strategy
