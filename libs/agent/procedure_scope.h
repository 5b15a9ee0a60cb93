#pragma once
// Lets a strategy's expressions read what its procedure has gathered: `steps.<id>` is the main
// output of the skill run under that procedure id (probes included), `row` the row a drill is
// looking at, `inputs.<name>` what the question says (strategy.h: kProcedureInputs). Steps that
// did not run read as null, so guards like `len(steps.focus_app.rows) > 0` work; ids the
// procedure does not know are errors.

#include <map>
#include <string>

#include "libs/skills/expression.h"
#include "libs/skills/step_result.h"

namespace tw::agent {

class ProcedureScope : public skills::ExprScope {
 public:
  // Declares `id` (so references to it are valid) with its output, or nullptr if it produced none.
  void Set(const std::string& id, const skills::StepResult* output) { outputs_[id] = output; }
  void SetRow(const skills::StepResult* result, size_t index) {
    row_result_ = result;
    row_index_ = index;
  }
  void ClearRow() { row_result_ = nullptr; }
  void SetInput(const std::string& name, skills::ExprValue value) { inputs_[name] = std::move(value); }

  absl::StatusOr<skills::ExprValue> Input(std::string_view name) const override;
  absl::StatusOr<skills::ExprValue> Step(std::string_view id) const override;
  absl::StatusOr<skills::ExprValue> CurrentRow() const override;

 private:
  std::map<std::string, const skills::StepResult*, std::less<>> outputs_;
  std::map<std::string, skills::ExprValue, std::less<>> inputs_;
  const skills::StepResult* row_result_ = nullptr;
  size_t row_index_ = 0;
};

}  // namespace tw::agent
