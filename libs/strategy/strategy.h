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
  std::string body;                   // Markdown guidance for the LLM
  std::string source_path;
};

}  // namespace tw::strategy
