#include "libs/strategy/strategy_parser.h"

#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/common/status_macros.h"
#include "libs/strategy/markdown_document.h"
#include "re2/re2.h"
#include "yaml-cpp/yaml.h"

namespace tw::strategy {
namespace {

// Turns YAML nodes into values, reporting `path:line: message` against the original file.
class Reader {
 public:
  Reader(std::string path, int line_offset) : path_(std::move(path)), offset_(line_offset) {}

  int Line(const YAML::Node& node) const { return node.Mark().line + offset_; }

  absl::Status Error(const YAML::Node& node, std::string_view message) const {
    return absl::InvalidArgumentError(
        absl::StrCat(path_, ":", Line(node), ": ", std::string(message)));
  }

  absl::Status CheckKeys(const YAML::Node& map, const std::set<std::string>& allowed,
                         std::string_view what) const {
    if (!map.IsMap()) return Error(map, absl::StrCat(std::string(what), " must be a mapping"));
    for (const auto& entry : map) {
      const std::string key = entry.first.as<std::string>();
      if (!allowed.count(key)) {
        return Error(entry.first,
                     absl::StrCat("unknown key '", key, "' in ", std::string(what),
                                  " (allowed: ", absl::StrJoin(allowed, ", "), ")"));
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<std::string> String(const YAML::Node& node, std::string_view key) const {
    if (!node.IsScalar()) return Error(node, absl::StrCat("'", std::string(key), "' must be text"));
    return node.Scalar();
  }

  absl::StatusOr<int> Int(const YAML::Node& node, std::string_view key) const {
    int value = 0;
    if (!node.IsScalar() || !YAML::convert<int>::decode(node, value)) {
      return Error(node, absl::StrCat("'", std::string(key), "' must be an integer"));
    }
    return value;
  }

  absl::StatusOr<bool> Bool(const YAML::Node& node, std::string_view key) const {
    bool value = false;
    if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
      return Error(node, absl::StrCat("'", std::string(key), "' must be true or false"));
    }
    return value;
  }

  absl::StatusOr<std::vector<std::string>> StringList(const YAML::Node& node,
                                                      std::string_view key) const {
    if (!node.IsSequence()) {
      return Error(node, absl::StrCat("'", std::string(key), "' must be a list"));
    }
    std::vector<std::string> out;
    for (const auto& item : node) {
      ASSIGN_OR_RETURN(std::string value, String(item, key));
      out.push_back(std::move(value));
    }
    return out;
  }

  absl::StatusOr<ParamExpressions> Params(const YAML::Node& node) const {
    if (!node.IsMap()) return Error(node, "'params' must be a mapping of input → expression");
    ParamExpressions out;
    for (const auto& entry : node) {
      ASSIGN_OR_RETURN(out[entry.first.as<std::string>()], String(entry.second, "params"));
    }
    return out;
  }

 private:
  std::string path_;
  int offset_;
};

absl::StatusOr<Phase> ParsePhase(const Reader& r, const YAML::Node& node) {
  RETURN_IF_ERROR(r.CheckKeys(node, {"id", "goal", "critical_skills", "mandatory"}, "phase"));
  Phase phase;
  if (!node["id"]) return r.Error(node, "phase needs an 'id'");
  ASSIGN_OR_RETURN(phase.id, r.String(node["id"], "id"));
  if (node["goal"]) {
    ASSIGN_OR_RETURN(phase.goal, r.String(node["goal"], "goal"));
  }
  if (node["critical_skills"]) {
    ASSIGN_OR_RETURN(phase.critical_skills,
                     r.StringList(node["critical_skills"], "critical_skills"));
  }
  if (node["mandatory"]) {
    ASSIGN_OR_RETURN(phase.mandatory, r.Bool(node["mandatory"], "mandatory"));
  }
  return phase;
}

absl::StatusOr<ProcedureStep> ParseStep(const Reader& r, const YAML::Node& node) {
  RETURN_IF_ERROR(
      r.CheckKeys(node, {"id", "skill", "params", "when", "mandatory"}, "procedure step"));
  ProcedureStep step;
  step.line = r.Line(node);
  if (!node["skill"]) return r.Error(node, "procedure step needs a 'skill'");
  ASSIGN_OR_RETURN(step.skill, r.String(node["skill"], "skill"));
  step.id = step.skill;
  if (node["id"]) {
    ASSIGN_OR_RETURN(step.id, r.String(node["id"], "id"));
  }
  if (node["params"]) {
    ASSIGN_OR_RETURN(step.params, r.Params(node["params"]));
  }
  if (node["when"]) {
    ASSIGN_OR_RETURN(step.when, r.String(node["when"], "when"));
  }
  if (node["mandatory"]) {
    ASSIGN_OR_RETURN(step.mandatory, r.Bool(node["mandatory"], "mandatory"));
  }
  return step;
}

absl::StatusOr<Drill> ParseDrill(const Reader& r, const YAML::Node& node) {
  RETURN_IF_ERROR(r.CheckKeys(
      node, {"id", "skill", "over", "where", "max_items", "params", "why"}, "drill"));
  Drill drill;
  drill.line = r.Line(node);
  if (!node["id"] || !node["skill"]) return r.Error(node, "drill needs an 'id' and a 'skill'");
  ASSIGN_OR_RETURN(drill.id, r.String(node["id"], "id"));
  ASSIGN_OR_RETURN(drill.skill, r.String(node["skill"], "skill"));
  if (node["over"]) {
    ASSIGN_OR_RETURN(drill.over, r.String(node["over"], "over"));
  }
  if (node["where"]) {
    ASSIGN_OR_RETURN(drill.where, r.String(node["where"], "where"));
  }
  if (node["max_items"]) {
    ASSIGN_OR_RETURN(drill.max_items, r.Int(node["max_items"], "max_items"));
    if (drill.max_items < 1 || drill.max_items > 50) {
      return r.Error(node["max_items"], "'max_items' must be between 1 and 50");
    }
  }
  if (node["params"]) {
    ASSIGN_OR_RETURN(drill.params, r.Params(node["params"]));
  }
  if (node["why"]) {
    ASSIGN_OR_RETURN(drill.why, r.String(node["why"], "why"));
  }
  return drill;
}

absl::Status ParseProcedure(const Reader& r, const YAML::Node& node, Procedure& out) {
  RETURN_IF_ERROR(r.CheckKeys(node, {"probes", "steps", "drills"}, "procedure"));
  std::set<std::string> ids;
  auto parse_steps = [&](const char* key, std::vector<ProcedureStep>& into) -> absl::Status {
    if (!node[key]) return absl::OkStatus();
    if (!node[key].IsSequence()) return r.Error(node[key], absl::StrCat("'", key, "' must be a list"));
    for (const auto& item : node[key]) {
      ASSIGN_OR_RETURN(ProcedureStep step, ParseStep(r, item));
      if (!ids.insert(step.id).second) {
        return r.Error(item, absl::StrCat("duplicate procedure id '", step.id, "'"));
      }
      into.push_back(std::move(step));
    }
    return absl::OkStatus();
  };
  RETURN_IF_ERROR(parse_steps("probes", out.probes));
  RETURN_IF_ERROR(parse_steps("steps", out.steps));
  if (node["drills"]) {
    if (!node["drills"].IsSequence()) return r.Error(node["drills"], "'drills' must be a list");
    for (const auto& item : node["drills"]) {
      ASSIGN_OR_RETURN(Drill drill, ParseDrill(r, item));
      if (!ids.insert(drill.id).second) {
        return r.Error(item, absl::StrCat("duplicate procedure id '", drill.id, "'"));
      }
      // A drill iterates rows the procedure has already produced; anything else is a typo.
      if (!drill.over.empty() && !ids.count(drill.over)) {
        return r.Error(item, absl::StrCat("drill '", drill.id, "' iterates unknown step '",
                                          drill.over, "'"));
      }
      out.drills.push_back(std::move(drill));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<SceneSignal> ParseSignal(const Reader& r, const YAML::Node& node) {
  RETURN_IF_ERROR(
      r.CheckKeys(node, {"skill", "params", "has_data", "problem", "summary"}, "signal"));
  SceneSignal signal;
  signal.line = r.Line(node);
  if (!node["skill"] || !node["problem"] || !node["summary"]) {
    return r.Error(node, "signal needs a 'skill', a 'problem' condition and a 'summary'");
  }
  ASSIGN_OR_RETURN(signal.skill, r.String(node["skill"], "skill"));
  if (node["params"]) {
    ASSIGN_OR_RETURN(signal.params, r.Params(node["params"]));
  }
  if (node["has_data"]) {
    ASSIGN_OR_RETURN(signal.has_data, r.String(node["has_data"], "has_data"));
  }
  ASSIGN_OR_RETURN(signal.problem, r.String(node["problem"], "problem"));
  ASSIGN_OR_RETURN(signal.summary, r.String(node["summary"], "summary"));
  return signal;
}

absl::StatusOr<SceneVerdict> ParseVerdict(const Reader& r, const YAML::Node& node) {
  RETURN_IF_ERROR(
      r.CheckKeys(node, {"healthy", "problem", "no_data", "healthy_words"}, "verdict"));
  SceneVerdict verdict;
  if (node["healthy"]) {
    ASSIGN_OR_RETURN(verdict.healthy, r.String(node["healthy"], "healthy"));
  }
  if (node["problem"]) {
    ASSIGN_OR_RETURN(verdict.problem, r.String(node["problem"], "problem"));
  }
  if (node["no_data"]) {
    ASSIGN_OR_RETURN(verdict.no_data, r.String(node["no_data"], "no_data"));
  }
  if (node["healthy_words"]) {
    ASSIGN_OR_RETURN(verdict.healthy_words, r.StringList(node["healthy_words"], "healthy_words"));
  }
  return verdict;
}

absl::StatusOr<CompletenessRule> ParseCompleteness(const Reader& r, const YAML::Node& node) {
  RETURN_IF_ERROR(r.CheckKeys(node, {"requires_skill", "mention_any", "states_duration", "message"},
                              "verification rule"));
  CompletenessRule rule;
  if (!node["message"]) return r.Error(node, "a verification rule needs a 'message'");
  ASSIGN_OR_RETURN(rule.message, r.String(node["message"], "message"));
  if (node["requires_skill"]) {
    ASSIGN_OR_RETURN(rule.requires_skill, r.String(node["requires_skill"], "requires_skill"));
  }
  if (node["mention_any"]) {
    ASSIGN_OR_RETURN(rule.mention_any, r.StringList(node["mention_any"], "mention_any"));
  }
  if (node["states_duration"]) {
    ASSIGN_OR_RETURN(rule.states_duration, r.Bool(node["states_duration"], "states_duration"));
  }
  if (rule.requires_skill.empty() && rule.mention_any.empty() && !rule.states_duration) {
    return r.Error(node, "a verification rule must require a skill, words or a duration");
  }
  return rule;
}

absl::Status ParseFrontmatter(const Reader& r, const YAML::Node& root, Strategy& s) {
  RETURN_IF_ERROR(r.CheckKeys(root,
                              {"scene", "title", "priority", "keywords", "patterns",
                               "required_capabilities", "plan_aspects", "phases", "procedure",
                               "signal", "verdict", "verification"},
                              "strategy frontmatter"));
  if (!root["scene"]) return r.Error(root, "strategy needs a 'scene'");
  ASSIGN_OR_RETURN(s.scene, r.String(root["scene"], "scene"));
  if (root["title"]) {
    ASSIGN_OR_RETURN(s.title, r.String(root["title"], "title"));
  }
  if (root["priority"]) {
    ASSIGN_OR_RETURN(s.priority, r.Int(root["priority"], "priority"));
  }
  if (root["keywords"]) {
    ASSIGN_OR_RETURN(s.keywords, r.StringList(root["keywords"], "keywords"));
  }
  if (root["patterns"]) {
    ASSIGN_OR_RETURN(s.patterns, r.StringList(root["patterns"], "patterns"));
  }
  for (size_t i = 0; i < s.patterns.size(); ++i) {
    RE2 re(s.patterns[i], RE2::Quiet);
    if (!re.ok()) {
      return r.Error(root["patterns"][i],
                     absl::StrCat("invalid pattern '", s.patterns[i], "': ", re.error()));
    }
  }
  if (root["required_capabilities"]) {
    ASSIGN_OR_RETURN(s.required_capabilities,
                     r.StringList(root["required_capabilities"], "required_capabilities"));
  }
  if (root["plan_aspects"]) {
    ASSIGN_OR_RETURN(s.plan_aspects, r.StringList(root["plan_aspects"], "plan_aspects"));
  }
  if (root["phases"]) {
    if (!root["phases"].IsSequence()) return r.Error(root["phases"], "'phases' must be a list");
    std::set<std::string> ids;
    for (const auto& item : root["phases"]) {
      ASSIGN_OR_RETURN(Phase phase, ParsePhase(r, item));
      if (!ids.insert(phase.id).second) {
        return r.Error(item, absl::StrCat("duplicate phase id '", phase.id, "'"));
      }
      s.phases.push_back(std::move(phase));
    }
  }
  if (root["procedure"]) RETURN_IF_ERROR(ParseProcedure(r, root["procedure"], s.procedure));
  if (root["signal"]) {
    ASSIGN_OR_RETURN(s.signal, ParseSignal(r, root["signal"]));
  }
  if (root["verdict"]) {
    ASSIGN_OR_RETURN(s.verdict, ParseVerdict(r, root["verdict"]));
  }
  if (root["verification"]) {
    if (!root["verification"].IsSequence()) {
      return r.Error(root["verification"], "'verification' must be a list of rules");
    }
    for (const auto& item : root["verification"]) {
      ASSIGN_OR_RETURN(CompletenessRule rule, ParseCompleteness(r, item));
      s.completeness.push_back(std::move(rule));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Pitfall> ParsePitfall(std::string_view text, const std::string& path) {
  ASSIGN_OR_RETURN(MarkdownDocument doc, SplitFrontmatter(text));
  Reader r(path, doc.frontmatter_first_line);
  Pitfall p;
  p.source_path = path;
  p.body = std::move(doc.body);
  try {
    const YAML::Node root = YAML::Load(doc.frontmatter);
    RETURN_IF_ERROR(r.CheckKeys(root,
                                {"id", "kind", "scenes", "severities", "all_of", "any_of",
                                 "title_any_of", "message"},
                                "pitfall frontmatter"));
    if (!root["id"] || !root["kind"] || !root["severities"] || !root["message"]) {
      return r.Error(root, "a pitfall needs an 'id', a 'kind', 'severities' and a 'message'");
    }
    ASSIGN_OR_RETURN(p.id, r.String(root["id"], "id"));
    ASSIGN_OR_RETURN(p.kind, r.String(root["kind"], "kind"));
    ASSIGN_OR_RETURN(p.severities, r.StringList(root["severities"], "severities"));
    for (const std::string& sev : p.severities) {
      if (sev != "critical" && sev != "high" && sev != "medium" && sev != "low" && sev != "info") {
        return r.Error(root["severities"], absl::StrCat("unknown severity '", sev, "'"));
      }
    }
    ASSIGN_OR_RETURN(p.message, r.String(root["message"], "message"));
    for (auto [key, into] : {std::pair{"scenes", &p.scenes}, std::pair{"all_of", &p.all_of},
                             std::pair{"any_of", &p.any_of},
                             std::pair{"title_any_of", &p.title_any_of}}) {
      if (root[key]) {
        ASSIGN_OR_RETURN(*into, r.StringList(root[key], key));
      }
    }
    if (p.all_of.empty() && p.any_of.empty() && p.title_any_of.empty()) {
      return r.Error(root, "a pitfall needs phrases (all_of, any_of or title_any_of)");
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", e.mark.line + doc.frontmatter_first_line, ": ", e.msg));
  }
  return p;
}

absl::StatusOr<std::vector<ProcedureStep>> ParseContextProbes(std::string_view text,
                                                              const std::string& path) {
  ASSIGN_OR_RETURN(MarkdownDocument doc, SplitFrontmatter(text));
  Reader reader(path, doc.frontmatter_first_line);
  std::vector<ProcedureStep> probes;
  try {
    const YAML::Node root = YAML::Load(doc.frontmatter);
    RETURN_IF_ERROR(reader.CheckKeys(root, {"probes"}, "context frontmatter"));
    if (!root["probes"] || !root["probes"].IsSequence()) {
      return reader.Error(root, "'probes' must be a list of skills");
    }
    std::set<std::string> ids;
    for (const auto& item : root["probes"]) {
      ASSIGN_OR_RETURN(ProcedureStep step, ParseStep(reader, item));
      if (!ids.insert(step.id).second) {
        return reader.Error(item, absl::StrCat("duplicate probe id '", step.id, "'"));
      }
      probes.push_back(std::move(step));
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", e.mark.line + doc.frontmatter_first_line, ": ", e.msg));
  }
  return probes;
}

absl::StatusOr<Strategy> ParseStrategy(std::string_view text, const std::string& path) {
  ASSIGN_OR_RETURN(MarkdownDocument doc, SplitFrontmatter(text));
  if (doc.frontmatter.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ":1: strategy has no frontmatter"));
  }
  Strategy strategy;
  strategy.source_path = path;
  strategy.body = std::move(doc.body);
  // yaml-cpp marks are 0-based within the frontmatter text.
  Reader reader(path, doc.frontmatter_first_line);
  try {
    const YAML::Node root = YAML::Load(doc.frontmatter);
    RETURN_IF_ERROR(ParseFrontmatter(reader, root, strategy));
  } catch (const YAML::Exception& e) {
    // yaml-cpp reports syntax errors by exception; keep them inside this library.
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", e.mark.line + doc.frontmatter_first_line, ": ", e.msg));
  }
  if (strategy.keywords.empty() && strategy.scene != "general") {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": scene '", strategy.scene, "' declares no keywords"));
  }
  return strategy;
}

}  // namespace tw::strategy
