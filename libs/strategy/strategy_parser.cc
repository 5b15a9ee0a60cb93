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

absl::Status ParseFrontmatter(const Reader& r, const YAML::Node& root, Strategy& s) {
  RETURN_IF_ERROR(r.CheckKeys(root,
                              {"scene", "title", "priority", "keywords", "patterns",
                               "required_capabilities", "plan_aspects", "phases", "procedure"},
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
  return absl::OkStatus();
}

}  // namespace

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
