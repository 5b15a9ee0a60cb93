#include "tools/tracewise/mcp/tracewise_resources.h"

#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tools/tracewise/mcp/schema_catalog.h"

namespace tw::mcp {
namespace {

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InternalError(absl::StrCat("cannot read ", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The catalogue is built on first use (it opens an empty engine) and kept.
class LazySchema {
 public:
  const absl::StatusOr<SchemaCatalog>& Get() {
    std::call_once(once_, [this] { catalog_ = SchemaCatalog::Build(); });
    return catalog_;
  }

 private:
  std::once_flag once_;
  absl::StatusOr<SchemaCatalog> catalog_ = absl::UnknownError("not built");
};

std::string SkillIndex(const skills::SkillLibrary& library) {
  std::string out =
      "# Tracewise skill library\n\n"
      "Deterministic analyses of a trace. Run one with the run_skill tool (`params` are the "
      "inputs below); `tracewise://skills/{name}` shows a skill's YAML: its SQL, diagnostic "
      "rules and display.\n";
  std::string category;
  for (const skills::Skill* s : library.All()) {
    if (s->category != category) {
      category = s->category;
      absl::StrAppend(&out, "\n## ", category, "\n\n");
    }
    std::vector<std::string> inputs;
    for (const auto& in : s->inputs) {
      inputs.push_back(absl::StrCat(in.name, ":", skills::InputTypeName(in.type), in.required ? "*" : ""));
    }
    absl::StrAppend(&out, "- **", s->name, "** — ", s->description,
                    inputs.empty() ? "" : absl::StrCat(" Inputs: ", absl::StrJoin(inputs, ", "), "."), "\n");
  }
  return out;
}

std::string StrategyIndex(const strategy::StrategyLibrary& strategies) {
  std::string out =
      "# Tracewise scene strategies\n\n"
      "A question is classified into a scene; the scene's strategy says what an analysis must "
      "cover (plan aspects, phases), which skills it rests on and which deep drills follow. "
      "`tracewise://strategies/{scene}` has the full text. Pass `scene` to the analyze tool to "
      "force one.\n\n";
  for (const strategy::Strategy& s : strategies.strategies()) {
    absl::StrAppend(&out, "- **", s.scene, "** — ", s.title, ". Keywords: ",
                    absl::StrJoin(s.keywords, ", "), "\n");
  }
  if (!strategies.knowledge().topics().empty()) {
    out += "\n## Knowledge topics\n\n";
    for (const auto& t : strategies.knowledge().topics()) {
      absl::StrAppend(&out, "- `tracewise://knowledge/", t.topic, "` — ", t.title, "\n");
    }
  }
  return out;
}

}  // namespace

absl::Status AddTracewiseResources(ResourceRegistry& registry, const skills::SkillLibrary* library,
                                   const strategy::StrategyLibrary* strategies) {
  auto add = [&](ResourceDefinition r) { return registry.Add(std::move(r)); };
  if (auto s = add({"tracewise://skills", "skills", "Skill library",
                    "Every analysis skill with its category, purpose and inputs.", "text/markdown",
                    [library]() -> absl::StatusOr<std::string> { return SkillIndex(*library); }});
      !s.ok()) {
    return s;
  }
  for (const skills::Skill* skill : library->All()) {
    const std::string file = skill->location.file;
    if (auto s = add({absl::StrCat("tracewise://skills/", skill->name), skill->name,
                      absl::StrCat("Skill ", skill->name), skill->description, "application/yaml",
                      [file] { return ReadFile(file); }});
        !s.ok()) {
      return s;
    }
  }
  if (auto s = add({"tracewise://strategies", "strategies", "Scene strategies",
                    "The analysis scenes (scrolling, startup, ANR, ...) and what each must cover.",
                    "text/markdown",
                    [strategies]() -> absl::StatusOr<std::string> { return StrategyIndex(*strategies); }});
      !s.ok()) {
    return s;
  }
  for (const strategy::Strategy& st : strategies->strategies()) {
    const std::string file = st.source_path;
    if (auto s = add({absl::StrCat("tracewise://strategies/", st.scene), st.scene,
                      absl::StrCat("Strategy: ", st.title),
                      absl::StrCat("How the ", st.scene, " scene is analysed: plan aspects, phases, procedure, guidance."),
                      "text/markdown", [file] { return ReadFile(file); }});
        !s.ok()) {
      return s;
    }
  }
  for (const auto& topic : strategies->knowledge().topics()) {
    const std::string file = topic.source_path;
    if (auto s = add({absl::StrCat("tracewise://knowledge/", topic.topic), topic.topic, topic.title,
                      absl::StrCat("Background: ", topic.title), "text/markdown",
                      [file] { return ReadFile(file); }});
        !s.ok()) {
      return s;
    }
  }
  auto schema = std::make_shared<LazySchema>();
  if (auto s = add({"tracewise://schema", "schema", "SQL schema",
                    "Tables and views the query tool can use, with their columns and types, and the "
                    "stdlib modules INCLUDE PERFETTO MODULE loads.",
                    "text/markdown",
                    [schema]() -> absl::StatusOr<std::string> {
                      const auto& catalog = schema->Get();
                      if (!catalog.ok()) return catalog.status();
                      return catalog->Markdown();
                    }});
      !s.ok()) {
    return s;
  }
  return registry.AddTemplate(
      {"tracewise://schema/{table}", "schema-table", "One table or view",
       "A table or view of the SQL schema with its columns.", "text/markdown",
       [schema](std::string_view table) -> absl::StatusOr<std::string> {
         const auto& catalog = schema->Get();
         if (!catalog.ok()) return catalog.status();
         const SchemaObject* object = catalog->Find(std::string(table));
         if (object == nullptr) {
           return absl::NotFoundError(absl::StrCat("no table or view named \"", std::string(table),
                                                   "\" (tracewise://schema lists them)"));
         }
         return catalog->ObjectMarkdown(*object);
       }});
}

}  // namespace tw::mcp
