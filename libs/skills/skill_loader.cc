#include "libs/skills/skill_loader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tw::skills {

std::string Diagnostic::ToString() const {
  return absl::StrCat(location.ToString(), ": ", warning ? "warning" : "error", ": ", message);
}

namespace {

bool IsIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

// Names (skills, steps, inputs, rules) are identifiers so they read the same in YAML, on the
// command line and inside expressions.
class Loader {
 public:
  explicit Loader(std::string file) : file_(std::move(file)) {}

  LoadedSkill Load(std::string_view yaml) {
    LoadedSkill out;
    YAML::Node root;
    try {
      root = YAML::Load(std::string(yaml));
    } catch (const YAML::Exception& e) {
      Error(e.mark, absl::StrCat("YAML syntax: ", e.msg));
      out.diagnostics = std::move(diags_);
      return out;
    }
    Skill skill;
    skill.location = SourceLocation{file_, 1, 1};
    try {
      ParseSkill(root, &skill);
    } catch (const YAML::Exception& e) {
      // as<T>() on a node of the wrong shape; our checks should have caught it first.
      Error(e.mark, e.msg);
    }
    const bool failed = std::any_of(diags_.begin(), diags_.end(),
                                    [](const Diagnostic& d) { return !d.warning; });
    if (!failed) out.skill = std::move(skill);
    out.diagnostics = std::move(diags_);
    return out;
  }

 private:
  SourceLocation Loc(const YAML::Mark& mark) const {
    if (mark.is_null()) return SourceLocation{file_, 0, 0};
    return SourceLocation{file_, mark.line + 1, mark.column + 1};
  }
  SourceLocation Loc(const YAML::Node& node) const { return Loc(node.Mark()); }
  void Error(const YAML::Mark& mark, std::string message) {
    diags_.push_back({Loc(mark), std::move(message), false});
  }
  void Error(const YAML::Node& node, std::string message) { Error(node.Mark(), std::move(message)); }

  // Every key of `map` must be in `allowed`; reports the others. False if `map` is not a map.
  bool CheckMap(const YAML::Node& map, std::string_view what,
                const std::vector<std::string_view>& allowed) {
    if (!map.IsMap()) {
      Error(map, absl::StrCat(std::string(what), " must be a mapping"));
      return false;
    }
    for (auto it = map.begin(); it != map.end(); ++it) {
      const std::string key = it->first.Scalar();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        std::vector<std::string> names(allowed.begin(), allowed.end());
        Error(it->first, absl::StrCat("unknown field '", key, "' in ", std::string(what),
                                      " (allowed: ", absl::StrJoin(names, ", "), ")"));
      }
    }
    return true;
  }

  bool GetString(const YAML::Node& map, const char* key, std::string* out, bool required,
                 std::string_view what) {
    const YAML::Node n = map[key];
    if (!n) {
      if (required) {
        Error(map, absl::StrCat(std::string(what), " needs '", key, "'"));
      }
      return false;
    }
    if (!n.IsScalar()) {
      Error(n, absl::StrCat("'", key, "' must be a scalar"));
      return false;
    }
    *out = n.Scalar();
    return true;
  }

  bool GetBool(const YAML::Node& map, const char* key, bool* out) {
    const YAML::Node n = map[key];
    if (!n) return false;
    bool v = false;
    if (!n.IsScalar() || !YAML::convert<bool>::decode(n, v)) {
      Error(n, absl::StrCat("'", key, "' must be true or false"));
      return false;
    }
    *out = v;
    return true;
  }

  bool GetInt(const YAML::Node& map, const char* key, int64_t* out, int64_t min, int64_t max) {
    const YAML::Node n = map[key];
    if (!n) return false;
    long long v = 0;
    if (!n.IsScalar() || !YAML::convert<long long>::decode(n, v) || v < min || v > max) {
      Error(n, absl::StrCat("'", key, "' must be an integer in [", min, ", ", max, "]"));
      return false;
    }
    *out = v;
    return true;
  }

  std::vector<std::string> GetStringList(const YAML::Node& map, const char* key) {
    std::vector<std::string> out;
    const YAML::Node n = map[key];
    if (!n) return out;
    if (!n.IsSequence()) {
      Error(n, absl::StrCat("'", key, "' must be a list"));
      return out;
    }
    for (const auto& item : n) {
      if (!item.IsScalar()) {
        Error(item, absl::StrCat("'", key, "' items must be scalars"));
        continue;
      }
      out.push_back(item.Scalar());
    }
    return out;
  }

  std::optional<Expression> ParseExpression(const YAML::Node& n, std::string_view what) {
    if (!n.IsScalar()) {
      Error(n, absl::StrCat(std::string(what), " must be an expression (a string)"));
      return std::nullopt;
    }
    auto e = Expression::Parse(n.Scalar());
    if (!e.ok()) {
      Error(n, absl::StrCat("invalid expression in ", std::string(what), " '", n.Scalar(),
                            "': ", std::string(e.status().message())));
      return std::nullopt;
    }
    return *std::move(e);
  }

  Template ParseTemplate(const YAML::Node& map, const char* key) {
    const YAML::Node n = map[key];
    if (!n) return Template();
    if (!n.IsScalar()) {
      Error(n, absl::StrCat("'", key, "' must be a string"));
      return Template();
    }
    auto t = Template::Parse(n.Scalar());
    if (!t.ok()) {
      Error(n, absl::StrCat("invalid template in '", key, "': ", std::string(t.status().message())));
      return Template();
    }
    return *std::move(t);
  }

  std::map<std::string, Expression> ParseExpressionMap(const YAML::Node& n, std::string_view what) {
    std::map<std::string, Expression> out;
    if (!n) return out;
    if (!n.IsMap()) {
      Error(n, absl::StrCat(std::string(what), " must be a mapping of name: expression"));
      return out;
    }
    for (auto it = n.begin(); it != n.end(); ++it) {
      const std::string key = it->first.Scalar();
      if (!IsIdentifier(key)) {
        Error(it->first, absl::StrCat("'", key, "' is not a valid parameter name"));
        continue;
      }
      auto e = ParseExpression(it->second, absl::StrCat(std::string(what), ".", key));
      if (e) out[key] = std::move(*e);
    }
    return out;
  }

  void ParseSkill(const YAML::Node& root, Skill* skill) {
    if (!CheckMap(root, "a skill",
                  {"name", "version", "category", "description", "tags", "inputs", "requires",
                   "steps", "output"})) {
      return;
    }
    if (GetString(root, "name", &skill->name, true, "a skill") && !IsIdentifier(skill->name)) {
      Error(root["name"], absl::StrCat("skill name '", skill->name,
                                       "' must be an identifier (letters, digits, _)"));
    }
    GetString(root, "version", &skill->version, true, "a skill");
    GetString(root, "category", &skill->category, true, "a skill");
    GetString(root, "description", &skill->description, true, "a skill");
    skill->tags = GetStringList(root, "tags");
    GetString(root, "output", &skill->output, false, "a skill");

    if (const YAML::Node inputs = root["inputs"]) {
      if (!inputs.IsSequence()) {
        Error(inputs, "'inputs' must be a list");
      } else {
        for (const auto& n : inputs) ParseInput(n, skill);
      }
    }
    if (const YAML::Node req = root["requires"]) {
      skill->requires_location = Loc(req);
      if (CheckMap(req, "requires", {"tables", "modules"})) {
        skill->required_tables = GetStringList(req, "tables");
        skill->required_modules = GetStringList(req, "modules");
      }
    }
    const YAML::Node steps = root["steps"];
    if (!steps) {
      Error(root, "a skill needs 'steps'");
    } else if (!steps.IsSequence() || steps.size() == 0) {
      Error(steps, "'steps' must be a non-empty list");
    } else {
      std::set<std::string> ids;
      for (const auto& n : steps) {
        Step step;
        if (!ParseStep(n, &step, /*nested=*/false)) continue;
        if (!ids.insert(step.id).second) {
          Error(n, absl::StrCat("duplicate step id '", step.id, "'"));
          continue;
        }
        skill->steps.push_back(std::move(step));
      }
      if (!skill->output.empty()) {
        const Step* out = skill->FindStep(skill->output);
        if (!out) {
          Error(root["output"], absl::StrCat("output '", skill->output, "' is not a step"));
        } else if (out->kind == Step::Kind::kDiagnose) {
          Error(root["output"], "output cannot be a diagnose step");
        }
      }
    }
  }

  void ParseInput(const YAML::Node& n, Skill* skill) {
    if (!CheckMap(n, "an input", {"name", "type", "required", "default", "description", "values"})) {
      return;
    }
    SkillInput input;
    input.location = Loc(n);
    if (GetString(n, "name", &input.name, true, "an input") && !IsIdentifier(input.name)) {
      Error(n["name"], absl::StrCat("input name '", input.name, "' must be an identifier"));
      return;
    }
    if (skill->FindInput(input.name)) {
      Error(n, absl::StrCat("duplicate input '", input.name, "'"));
      return;
    }
    std::string type = "string";
    GetString(n, "type", &type, true, "an input");
    static const std::pair<const char*, InputType> kTypes[] = {
        {"string", InputType::kString},
        {"int", InputType::kInt},
        {"timestamp_ns", InputType::kTimestampNs},
        {"duration_ns", InputType::kDurationNs},
        {"bool", InputType::kBool},
        {"enum", InputType::kEnum}};
    bool known = false;
    for (const auto& [name, t] : kTypes) {
      if (type == name) {
        input.type = t;
        known = true;
      }
    }
    if (!known) {
      Error(n["type"] ? n["type"] : n,
            absl::StrCat("unknown input type '", type,
                         "' (string, int, timestamp_ns, duration_ns, bool, enum)"));
    }
    GetBool(n, "required", &input.required);
    GetString(n, "description", &input.description, false, "an input");
    input.values = GetStringList(n, "values");
    if (input.type == InputType::kEnum && input.values.empty()) {
      Error(n, absl::StrCat("enum input '", input.name, "' needs 'values'"));
    }
    if (input.type != InputType::kEnum && !input.values.empty()) {
      Error(n["values"], "'values' is only for enum inputs");
    }
    if (const YAML::Node d = n["default"]) {
      if (!d.IsScalar()) {
        Error(d, "'default' must be a scalar");
      } else if (d.Tag() != "!" && d.Scalar() == "~") {
        // YAML null: no default.
      } else {
        auto v = ConvertInputValue(input, d.Scalar());
        if (!v.ok()) {
          Error(d, std::string(v.status().message()));
        } else {
          input.default_value = *v;
        }
      }
      if (input.required) Error(d, "a required input cannot have a default");
    }
    skill->inputs.push_back(std::move(input));
  }

  bool ParseDisplay(const YAML::Node& n, Display* display) {
    if (!CheckMap(n, "display", {"title", "level", "columns"})) return false;
    GetString(n, "title", &display->title, false, "display");
    if (GetString(n, "level", &display->level, false, "display")) {
      static const std::set<std::string> kLevels = {"summary", "list", "detail", "hidden"};
      if (!kLevels.count(display->level)) {
        Error(n["level"], absl::StrCat("unknown display level '", display->level,
                                       "' (summary, list, detail, hidden)"));
      }
    }
    if (const YAML::Node cols = n["columns"]) {
      if (!cols.IsSequence()) {
        Error(cols, "'columns' must be a list");
        return false;
      }
      for (const auto& c : cols) {
        if (!CheckMap(c, "a display column", {"name", "type", "unit"})) continue;
        DisplayColumn col;
        col.location = Loc(c);
        GetString(c, "name", &col.name, true, "a display column");
        std::string type = "string";
        if (GetString(c, "type", &type, false, "a display column") &&
            !ParseColumnType(type, &col.type)) {
          Error(c["type"], absl::StrCat("unknown column type '", type,
                                        "' (string, number, bool, duration_ns, timestamp_ns, "
                                        "percent, bytes, enum)"));
        }
        GetString(c, "unit", &col.unit, false, "a display column");
        display->columns.push_back(std::move(col));
      }
    }
    return true;
  }

  bool ParseStep(const YAML::Node& n, Step* step, bool nested) {
    if (!CheckMap(n, "a step",
                  {"id", "sql", "params", "max_rows", "skill", "args", "for_each", "max_items",
                   "step", "diagnose", "when", "optional", "display"})) {
      return false;
    }
    step->location = Loc(n);
    if (GetString(n, "id", &step->id, !nested, "a step") && !IsIdentifier(step->id)) {
      Error(n["id"], absl::StrCat("step id '", step->id, "' must be an identifier"));
      return false;
    }
    if (step->id.empty() && !nested) return false;

    int kinds = 0;
    for (const char* k : {"sql", "skill", "for_each", "diagnose"}) kinds += n[k] ? 1 : 0;
    if (kinds != 1) {
      Error(n, absl::StrCat("step '", step->id,
                            "' needs exactly one of sql, skill, for_each, diagnose"));
      return false;
    }
    auto only_for = [&](const char* key, const char* kind) {
      if (n[key]) Error(n[key], absl::StrCat("'", key, "' is only for ", kind, " steps"));
    };
    if (const YAML::Node w = n["when"]) step->when = ParseExpression(w, "when");
    GetBool(n, "optional", &step->optional);
    if (const YAML::Node d = n["display"]) ParseDisplay(d, &step->display);

    if (const YAML::Node sql = n["sql"]) {
      step->kind = Step::Kind::kSql;
      if (!sql.IsScalar() || sql.Scalar().empty()) {
        Error(sql, "'sql' must be a non-empty string");
      } else {
        step->sql = sql.Scalar();
      }
      step->sql_location = Loc(sql);
      step->params = ParseExpressionMap(n["params"], "params");
      GetInt(n, "max_rows", &step->max_rows, 1, 1000000);
      only_for("args", "skill");
      only_for("max_items", "for_each");
      only_for("step", "for_each");
    } else if (const YAML::Node sk = n["skill"]) {
      step->kind = Step::Kind::kSkill;
      if (!sk.IsScalar()) {
        Error(sk, "'skill' must be a skill name");
      } else {
        step->skill = sk.Scalar();
      }
      step->args = ParseExpressionMap(n["args"], "args");
      only_for("params", "sql");
      only_for("max_rows", "sql");
      only_for("max_items", "for_each");
      only_for("step", "for_each");
    } else if (const YAML::Node fe = n["for_each"]) {
      step->kind = Step::Kind::kForEach;
      if (nested) Error(fe, "for_each steps cannot be nested");
      if (!fe.IsScalar()) {
        Error(fe, "'for_each' must name an earlier step");
      } else {
        step->over = fe.Scalar();
      }
      int64_t max_items = step->max_items;
      GetInt(n, "max_items", &max_items, 1, 1000);
      step->max_items = static_cast<int>(max_items);
      const YAML::Node body = n["step"];
      if (!body) {
        Error(n, "a for_each step needs 'step' (the step to run for each row)");
      } else {
        auto b = std::make_shared<Step>();
        if (ParseStep(body, b.get(), /*nested=*/true)) {
          if (b->id.empty()) b->id = step->id;
          if (b->kind == Step::Kind::kDiagnose) {
            Error(body, "a for_each body must be a sql or skill step");
          }
          step->body = std::move(b);
        }
      }
      only_for("params", "sql");
      only_for("args", "skill");
      only_for("max_rows", "sql");
    } else if (const YAML::Node dg = n["diagnose"]) {
      step->kind = Step::Kind::kDiagnose;
      if (!dg.IsSequence() || dg.size() == 0) {
        Error(dg, "'diagnose' must be a non-empty list of rules");
      } else {
        std::set<std::string> ids;
        for (const auto& r : dg) {
          Rule rule;
          if (!ParseRule(r, &rule)) continue;
          if (!ids.insert(rule.id).second) Error(r, absl::StrCat("duplicate rule id '", rule.id, "'"));
          step->rules.push_back(std::move(rule));
        }
      }
      for (const char* k : {"params", "args", "max_rows", "max_items", "step"}) {
        if (n[k]) Error(n[k], absl::StrCat("'", k, "' does not belong in a diagnose step"));
      }
    }
    return true;
  }

  bool ParseRule(const YAML::Node& n, Rule* rule) {
    if (!CheckMap(n, "a rule",
                  {"id", "over", "condition", "severity", "title", "description", "evidence",
                   "suggestions", "cause", "impact", "max_findings"})) {
      return false;
    }
    rule->location = Loc(n);
    if (GetString(n, "id", &rule->id, true, "a rule") && !IsIdentifier(rule->id)) {
      Error(n["id"], absl::StrCat("rule id '", rule->id, "' must be an identifier"));
    }
    GetString(n, "over", &rule->over, false, "a rule");
    if (const YAML::Node c = n["condition"]) {
      if (auto e = ParseExpression(c, "condition")) rule->condition = std::move(*e);
    } else {
      Error(n, "a rule needs 'condition'");
    }
    std::string severity = "warning";
    if (GetString(n, "severity", &severity, true, "a rule") && severity.find("{{") != std::string::npos) {
      rule->severity_template = ParseTemplate(n, "severity");
    } else if (!severity.empty()) {
      if (severity == "info") {
        rule->severity = Severity::kInfo;
      } else if (severity == "notice") {
        rule->severity = Severity::kNotice;
      } else if (severity == "warning") {
        rule->severity = Severity::kWarning;
      } else if (severity == "critical") {
        rule->severity = Severity::kCritical;
      } else {
        Error(n["severity"], absl::StrCat("unknown severity '", severity,
                                          "' (info, notice, warning, critical)"));
      }
    }
    if (!n["title"]) Error(n, "a rule needs 'title'");
    rule->title = ParseTemplate(n, "title");
    rule->description = ParseTemplate(n, "description");
    if (const YAML::Node ev = n["evidence"]) {
      if (CheckMap(ev, "evidence", {"step", "fields", "row"})) {
        GetString(ev, "step", &rule->evidence_step, false, "evidence");
        if (const YAML::Node row = ev["row"]) rule->evidence_row = ParseExpression(row, "evidence.row");
        rule->evidence_fields = GetStringList(ev, "fields");
      }
    }
    if (const YAML::Node s = n["suggestions"]) {
      if (!s.IsSequence()) {
        Error(s, "'suggestions' must be a list");
      } else {
        for (const auto& item : s) {
          if (!item.IsScalar()) {
            Error(item, "a suggestion must be a string");
            continue;
          }
          auto t = Template::Parse(item.Scalar());
          if (!t.ok()) {
            Error(item, absl::StrCat("invalid template: ", std::string(t.status().message())));
            continue;
          }
          rule->suggestions.push_back(*std::move(t));
        }
      }
    }
    if (n["cause"]) rule->cause = ParseTemplate(n, "cause");
    if (const YAML::Node impact = n["impact"]) rule->impact = ParseExpression(impact, "impact");
    int64_t max_findings = rule->max_findings;
    GetInt(n, "max_findings", &max_findings, 1, 1000);
    rule->max_findings = static_cast<int>(max_findings);
    return true;
  }

  std::string file_;
  std::vector<Diagnostic> diags_;
};

}  // namespace

LoadedSkill ParseSkillYaml(std::string_view yaml, const std::string& file) {
  return Loader(file).Load(yaml);
}

LoadedSkill LoadSkillFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    LoadedSkill out;
    out.diagnostics.push_back({SourceLocation{path, 0, 0}, "cannot read file", false});
    return out;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseSkillYaml(ss.str(), path);
}

std::vector<std::string> FindSkillFiles(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return out;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && absl::EndsWith(it->path().filename().string(), ".skill.yaml")) {
      out.push_back(it->path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tw::skills
