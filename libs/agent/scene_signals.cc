#include "libs/agent/scene_signals.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace tw::agent {
namespace {

// `row` is the signal's first output row; steps and inputs come from the context.
class SignalScope : public skills::ExprScope {
 public:
  SignalScope(const ProcedureScope& context, const skills::StepResult* result)
      : context_(context), result_(result) {}
  absl::StatusOr<skills::ExprValue> Input(std::string_view name) const override {
    return context_.Input(name);
  }
  absl::StatusOr<skills::ExprValue> Step(std::string_view id) const override {
    return context_.Step(id);
  }
  absl::StatusOr<skills::ExprValue> CurrentRow() const override {
    return skills::ExprValue{skills::ExprValue::Row{result_, 0}};
  }

 private:
  const ProcedureScope& context_;
  const skills::StepResult* result_;
};

}  // namespace

std::vector<SceneSignalReading> ReadSceneSignals(const strategy::StrategyLibrary& strategies,
                                                 ProcedureRunner& runner) {
  std::vector<const strategy::Strategy*> scenes;
  for (const strategy::Strategy& s : strategies.strategies()) {
    if (!s.signal.empty()) scenes.push_back(&s);
  }
  std::stable_sort(scenes.begin(), scenes.end(),
                   [](const auto* a, const auto* b) { return a->priority > b->priority; });
  std::vector<SceneSignalReading> out;
  for (const strategy::Strategy* s : scenes) {
    SceneSignalReading reading;
    reading.scene = s->scene;
    reading.title = s->title.empty() ? s->scene : s->title;
    reading.priority = s->priority;
    const ProcedureRunRecord* run =
        runner.RunWithContext(absl::StrCat("signal:", s->scene), s->signal.skill, s->signal.params,
                              absl::StrCat("What the trace shows about ", reading.title, "."));
    const skills::StepResult* result = run ? run->result.Output() : nullptr;
    if (!run) {
      reading.message = "the signal's parameters could not be evaluated";
    } else if (run->result.outcome != skills::SkillOutcome::kOk) {
      reading.message = run->result.message;
    } else if (!result || result->rows.empty()) {
      reading.message = "the signal returned no row";
    } else {
      reading.evaluated = true;
      reading.artifact_id = result->artifact_id;
      SignalScope scope(runner.context_scope(), result);
      std::string error;
      reading.has_data = EvaluateCondition(s->signal.has_data, scope, "has_data", &error);
      if (reading.has_data) {
        reading.problem = EvaluateCondition(s->signal.problem, scope, "problem", &error);
        if (auto tmpl = skills::Template::Parse(s->signal.summary); tmpl.ok()) {
          if (auto text = tmpl->Render(scope); text.ok()) reading.summary = *text;
        }
      }
      if (!error.empty()) reading.message = error;
    }
    out.push_back(std::move(reading));
  }
  return out;
}

}  // namespace tw::agent
