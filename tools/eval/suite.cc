#include "tools/eval/suite.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "absl/strings/str_cat.h"
#include "libs/common/resource_dir.h"
#include "yaml-cpp/yaml.h"

namespace tw::eval {
namespace {

namespace fs = std::filesystem;

absl::Status Error(const std::string& path, const YAML::Node& node, const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat(path, ":", node.Mark().line + 1, ": ", message));
}

std::vector<std::string> Strings(const YAML::Node& node) {
  std::vector<std::string> out;
  if (node && node.IsSequence()) {
    for (const auto& item : node) out.push_back(item.as<std::string>());
  }
  return out;
}

absl::StatusOr<Variant> ParseVariant(const std::string& path, const YAML::Node& n) {
  Variant v;
  for (const auto& entry : n) {
    const std::string key = entry.first.as<std::string>();
    if (key == "seed") {
      v.seed = entry.second.as<uint64_t>();
    } else if (key == "fps") {
      v.fps = entry.second.as<int>();
    } else if (key == "duration_s") {
      v.duration_s = entry.second.as<double>();
    } else if (key == "cores") {
      const std::string cores = entry.second.as<std::string>();
      unsigned little = 0, big = 0;
      if (std::sscanf(cores.c_str(), "%u+%u", &little, &big) != 2) {
        return Error(path, entry.second, "cores is LITTLE+BIG, e.g. 6+2");
      }
      v.little_cpus = little;
      v.big_cpus = big;
    } else if (key == "ci") {
      v.ci = entry.second.as<bool>();
    } else {
      return Error(path, entry.first, absl::StrCat("unknown variant key '", key, "'"));
    }
  }
  return v;
}

}  // namespace

std::string Variant::Label() const {
  return absl::StrCat("seed ", seed, ", ", fps, " Hz",
                      duration_s > 0 ? absl::StrCat(", ", duration_s, " s") : "", ", ",
                      little_cpus, "+", big_cpus, " cores");
}

std::vector<std::string> Suite::QuestionsFor(const Case& c, size_t variant_index) const {
  std::vector<std::string> out = c.questions;
  auto it = question_sets.find(c.question_set);
  if (it == question_sets.end() || it->second.empty() || c.questions_per_variant <= 0) return out;
  const auto& set = it->second;
  const size_t n = static_cast<size_t>(c.questions_per_variant);
  for (size_t i = 0; i < n && i < set.size(); ++i) {
    out.push_back(set[(c.question_offset + variant_index * n + i) % set.size()]);
  }
  return out;
}

absl::StatusOr<Suite> LoadSuite(const std::string& path) {
  Suite suite;
  try {
    const YAML::Node root = YAML::LoadFile(path);
    suite.name = root["name"] ? root["name"].as<std::string>() : fs::path(path).stem().string();
    if (root["top_findings"]) suite.top_findings = root["top_findings"].as<int>();
    if (const YAML::Node words = root["cause_words"]) {
      for (const auto& entry : words) suite.cause_words[entry.first.as<std::string>()] = Strings(entry.second);
    }
    if (const YAML::Node q = root["questions"]) {
      const fs::path questions = fs::path(path).parent_path() / q.as<std::string>();
      const YAML::Node sets = YAML::LoadFile(questions.string());
      for (const auto& entry : sets) suite.question_sets[entry.first.as<std::string>()] = Strings(entry.second);
    }
    const YAML::Node cases = root["cases"];
    if (!cases || !cases.IsSequence()) return Error(path, root, "the suite needs a list of 'cases'");
    for (const auto& n : cases) {
      Case c;
      if (!n["id"] || !n["scenario"] || !n["scene"]) {
        return Error(path, n, "a case needs an 'id', a 'scenario' and a 'scene'");
      }
      c.id = n["id"].as<std::string>();
      c.scenario = n["scenario"].as<std::string>();
      c.scene = n["scene"].as<std::string>();
      bool known = false;
      for (const tracegen::ScenarioInfo& s : tracegen::Scenarios()) known |= c.scenario == s.name;
      if (!known) return Error(path, n["scenario"], absl::StrCat("unknown tracegen scenario '", c.scenario, "'"));
      if (const YAML::Node vs = n["variants"]) {
        for (const auto& v : vs) {
          auto variant = ParseVariant(path, v);
          if (!variant.ok()) return variant.status();
          c.variants.push_back(*variant);
        }
      }
      if (c.variants.empty()) c.variants.push_back({});
      c.question_set = n["question_set"] ? n["question_set"].as<std::string>() : c.scene;
      if (!suite.question_sets.count(c.question_set) && !n["questions"]) {
        return Error(path, n, absl::StrCat("no question set '", c.question_set, "'"));
      }
      if (n["questions_per_variant"]) c.questions_per_variant = n["questions_per_variant"].as<int>();
      c.questions = Strings(n["questions"]);
      if (const YAML::Node e = n["expect"]) {
        c.expect.causes = Strings(e["causes"]);
        c.expect.name = Strings(e["name"]);
        c.expect.not_blamed = Strings(e["not_blamed"]);
        c.expect.clean = e["clean"] && e["clean"].as<bool>();
        for (const std::string& cause : c.expect.causes) {
          if (!suite.cause_words.count(cause)) {
            return Error(path, e, absl::StrCat("cause '", cause, "' has no cause_words"));
          }
        }
      }
      suite.cases.push_back(std::move(c));
    }
    std::map<std::string, size_t> asked;  // question set → phrasings handed out so far
    for (Case& c : suite.cases) {
      c.question_offset = asked[c.question_set];
      asked[c.question_set] += c.variants.size() * static_cast<size_t>(std::max(0, c.questions_per_variant));
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(path, ":", e.mark.line + 1, ": ", e.msg));
  }
  return suite;
}

std::string DefaultSuitePath() {
  const std::string dir = FindResourceDir("TRACEWISE_EVAL_DIR", "tools/eval", "suite.yaml");
  return dir.empty() ? "" : (fs::path(dir) / "suite.yaml").string();
}

}  // namespace tw::eval
