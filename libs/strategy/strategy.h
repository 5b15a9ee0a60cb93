#pragma once
// One analysis scene ("scrolling", "startup", ...) as declared by a `*.strategy.md` file. The
// frontmatter drives code (classification, the planning gate, the offline analyst's procedure);
// the Markdown body is guidance the LLM reads.

#include <map>
#include <string>
#include <vector>

namespace tw::strategy {

// A stage of an investigation. The planning gate checks that a plan covers every mandatory
// phase; `critical_skills` are the skills whose results that phase must rest on.
struct Phase {
  std::string id;
  std::string goal;
  std::vector<std::string> critical_skills;
  bool mandatory = false;
};

// What procedures may read as `inputs.<name>`: what the question says beyond its scene
// (question_reader.h) — `package` (text or null), `over_time`, `yes_no` and `general` (bools).
inline constexpr const char* kProcedureInputs[] = {"package", "over_time", "yes_no", "general"};

// Parameters passed to a skill: input name → expression (in the skill expression language)
// evaluated against the results gathered so far, e.g. `steps.focus_app.rows[0].upid` (probes,
// steps and drills share one id namespace, so a probe's results are `steps.<probe id>` too).
using ParamExpressions = std::map<std::string, std::string>;

// A skill the offline analyst always runs for this scene, in order.
struct ProcedureStep {
  std::string id;     // name its results are stored under (`steps.<id>`)
  std::string skill;  // skill name in the library
  ParamExpressions params;
  std::string when;   // optional condition; empty = always
  bool mandatory = true;
  int line = 0;       // line in the strategy file, for validation messages
};

// A deep drill: a skill run once per qualifying row of an earlier step's result, triggered by a
// threshold (e.g. "each jank reason above 15 % of janky frames → detail of its worst frame").
struct Drill {
  std::string id;
  std::string skill;
  std::string over;      // step id whose rows are iterated; empty = run once
  std::string where;     // row condition, may use `row.<column>`; empty = every row
  int max_items = 3;
  ParamExpressions params;
  std::string why;       // one sentence for the report: why this drill ran
  int line = 0;
};

struct Procedure {
  std::vector<ProcedureStep> probes;  // context probes, run first
  std::vector<ProcedureStep> steps;
  std::vector<Drill> drills;
};

// What the trace itself says about a scene before any question is asked: a cheap skill whose
// first output row (`row` in the expressions below) tells whether the trace holds the scene's
// data and whether that data shows a problem, and states the scene's key numbers in one
// sentence. The analyst reads every scene's signal, so a general question looks where the
// problems are and a specific question whose scene is clean can point at the scene that is not.
struct SceneSignal {
  std::string skill;
  ParamExpressions params;  // may read the context probes (`steps.focus_app...`) and `inputs`
  std::string has_data;     // condition over `row`; empty = the skill returned a row
  std::string problem;      // condition over `row`
  std::string summary;      // `{{ }}` template over `row`: the scene's key numbers
  int line = 0;
  bool empty() const { return skill.empty(); }
};

// How the direct answer words this scene's verdict ("Yes: scrolling is smooth — ...").
struct SceneVerdict {
  std::string healthy;  // e.g. "scrolling is smooth"
  std::string problem;  // e.g. "scrolling is janky"
  std::string no_data;  // e.g. "the trace has no frame timeline to judge scrolling"
  // Words that make a yes/no question ask whether the scene is healthy ("is scrolling smooth?")
  // rather than whether it has the problem ("does it drop frames?").
  std::vector<std::string> healthy_words;
};

// What a complete analysis of the scene also states once it reports a serious (critical or
// high) problem; the verifier holds every analysis to it (`verification:` in the frontmatter).
struct CompletenessRule {
  std::string requires_skill;            // a skill that must have run, e.g. frame_detail
  std::vector<std::string> mention_any;  // words, one of which its findings must state
  bool states_duration = false;          // its findings must state a duration
  std::string message;                   // what to do about it (the correction prompt)
};

// A known misdiagnosis (`pitfalls/*.md`): the verifier flags a finding of one of `severities`
// whose text holds every `all_of` phrase and one of `any_of` (or `title_any_of` in its title);
// the body explains the pitfall to the LLM.
struct Pitfall {
  std::string id;
  std::string kind;                     // the verifier issue, e.g. misdiagnosis_single_frame
  std::vector<std::string> scenes;      // empty: every scene
  std::vector<std::string> severities;  // critical | high | medium | low | info
  std::vector<std::string> all_of, any_of, title_any_of;
  std::string message;                  // may name the finding as {title}
  std::string body;
  std::string source_path;
};

struct Strategy {
  std::string scene;
  std::string title;
  int priority = 0;                   // higher wins when several scenes match
  std::vector<std::string> keywords;  // matched case-insensitively as substrings (any language)
  std::vector<std::string> patterns;  // RE2, matched case-insensitively
  std::vector<std::string> required_capabilities;
  std::vector<std::string> plan_aspects;  // what every plan for this scene must cover
  std::vector<Phase> phases;
  Procedure procedure;
  SceneSignal signal;                 // empty for scenes without a signal (general)
  SceneVerdict verdict;
  std::vector<CompletenessRule> completeness;
  std::vector<Pitfall> pitfalls;      // the library's pitfalls that apply to this scene
  std::string body;                   // Markdown guidance for the LLM
  std::string source_path;
};

}  // namespace tw::strategy
