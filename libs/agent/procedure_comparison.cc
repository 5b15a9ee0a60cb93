#include "libs/agent/procedure_comparison.h"

#include <deque>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/agent/procedure_scope.h"
#include "libs/skills/expression.h"

namespace tw::agent {
namespace {

// One trace's side of the procedure: its probe results, for the steps' expressions.
class Side {
 public:
  explicit Side(SkillRunner& skills) : skills_(skills) {
    // A comparison answers no particular question: the question's inputs are empty.
    for (const char* input : strategy::kProcedureInputs) {
      scope_.SetInput(input, std::string_view(input) == "package" ? skills::ExprValue::Null()
                                                                  : skills::ExprValue{false});
    }
  }

  void RunProbe(const strategy::ProcedureStep& probe) {
    std::map<std::string, SqlValue> params;
    if (!Applies(probe, &params).empty()) {
      scope_.Set(probe.id, nullptr);
      return;
    }
    runs_.push_back(skills_.Run(probe.skill, params));
    scope_.Set(probe.id, runs_.back().Output());
  }

  // Empty when the step applies to this trace (`params` filled), else why not.
  std::string Applies(const strategy::ProcedureStep& step, std::map<std::string, SqlValue>* params) {
    if (!step.when.empty()) {
      auto expr = skills::Expression::Parse(step.when);
      if (!expr.ok()) return std::string(expr.status().message());
      auto value = expr->EvaluateCondition(scope_);
      if (!value.ok()) return std::string(value.status().message());
      if (!*value) return absl::StrCat("condition not met (", step.when, ")");
    }
    for (const auto& [name, text] : step.params) {
      auto expr = skills::Expression::Parse(text);
      if (!expr.ok()) return std::string(expr.status().message());
      auto value = expr->Evaluate(scope_);
      if (!value.ok()) return std::string(value.status().message());
      auto sql = value->ToSql();
      if (!sql.ok()) return std::string(sql.status().message());
      (*params)[name] = *sql;
    }
    return "";
  }

  void Set(const std::string& id, const skills::StepResult* output) { scope_.Set(id, output); }

 private:
  SkillRunner& skills_;
  ProcedureScope scope_;
  std::deque<skills::SkillRunResult> runs_;  // the scope points into these
};

}  // namespace

ProcedureComparison CompareProcedure(const strategy::Strategy& strategy, SkillRunner& current,
                                     SkillRunner& reference,
                                     const ProcedureComparisonOptions& options) {
  ProcedureComparison out;
  auto cancelled = [&] { return options.cancelled && options.cancelled(); };
  Side cur(current), ref(reference);
  std::vector<strategy::ProcedureStep> probes = options.context_probes;
  probes.insert(probes.end(), strategy.procedure.probes.begin(), strategy.procedure.probes.end());
  for (const auto& probe : probes) {
    if (cancelled()) break;
    cur.RunProbe(probe);
    ref.RunProbe(probe);
  }
  out.markdown = absl::StrCat("## Comparison with the reference trace\n\nCurrent trace ",
                              options.current_label, " vs reference trace ",
                              options.reference_label, ": the ", strategy.scene,
                              " procedure's skills on both traces (delta = current - reference; "
                              "rows matched by process and layer names).\n");
  std::deque<SkillComparison> kept;  // later steps' expressions read earlier outputs
  int next = 1;
  for (const auto& step : strategy.procedure.steps) {
    if (cancelled()) {
      absl::StrAppend(&out.markdown, "\nThe comparison was cancelled.\n");
      break;
    }
    std::map<std::string, SqlValue> cur_params, ref_params;
    const std::string cur_skip = cur.Applies(step, &cur_params);
    const std::string ref_skip = ref.Applies(step, &ref_params);
    absl::StrAppend(&out.markdown, "\n### ", step.skill, "\n");
    if (!cur_skip.empty() || !ref_skip.empty()) {
      cur.Set(step.id, nullptr);
      ref.Set(step.id, nullptr);
      absl::StrAppend(&out.markdown, "Not compared: ",
                      !cur_skip.empty() ? absl::StrCat("on the current trace ", cur_skip)
                                        : absl::StrCat("on the reference trace ", ref_skip),
                      ".\n");
      continue;
    }
    if (options.on_skill) options.on_skill(step.skill);
    kept.push_back(CompareSkillRuns(step.skill, cur_params, ref_params, current, reference,
                                    absl::StrCat("cmp-", next)));
    const SkillComparison& c = kept.back();
    cur.Set(step.id, c.current.Output());
    ref.Set(step.id, c.reference.Output());
    if (c.differences != nullptr) {
      ++next;
      out.differences.push_back(c.differences);
      absl::StrAppend(&out.markdown, "Evidence: ", c.differences->artifact_id, "\n\n",
                      c.differences->rows.empty()
                          ? "- no numeric summary columns to compare\n"
                          : DescribeDifferences(*c.differences, options.lines_per_skill));
    }
    for (const std::string& note : c.notes) absl::StrAppend(&out.markdown, "- note: ", note, "\n");
  }
  return out;
}

}  // namespace tw::agent
