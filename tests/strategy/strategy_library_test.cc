#include "libs/strategy/strategy_library.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace tw::strategy {
namespace {

namespace fs = std::filesystem;

TEST(StrategyLibraryTest, LoadsShippedStrategiesTemplatesAndKnowledge) {
  auto library = StrategyLibrary::Load(DefaultStrategiesDir());
  ASSERT_TRUE(library.ok()) << library.status();
  for (const char* scene :
       {"scrolling", "startup", "anr", "interaction", "memory", "cpu", "power", "general"}) {
    const Strategy* s = library->Find(scene);
    ASSERT_NE(s, nullptr) << scene;
    EXPECT_FALSE(s->keywords.empty()) << scene;
    EXPECT_FALSE(s->plan_aspects.empty()) << scene;
    EXPECT_FALSE(s->procedure.probes.empty() && s->procedure.steps.empty()) << scene;
    EXPECT_FALSE(s->body.empty()) << scene;
    bool has_mandatory = false;
    for (const Phase& p : s->phases) has_mandatory |= p.mandatory;
    EXPECT_TRUE(has_mandatory) << scene;
  }
  for (const char* name :
       {"role", "output_format", "methodology", "quick_mode", "selection_context", "comparison"}) {
    EXPECT_NE(library->FindTemplate(name), nullptr) << name;
  }
  for (const char* topic : {"rendering_pipeline", "binder_ipc", "cpu_scheduler",
                            "garbage_collection", "lock_contention", "thermal_throttling",
                            "startup_causes", "data_sources"}) {
    EXPECT_NE(library->knowledge().Find(topic), nullptr) << topic;
  }
}

TEST(StrategyLibraryTest, KnowledgeSearchRanksByKeywords) {
  auto library = StrategyLibrary::Load(DefaultStrategiesDir());
  ASSERT_TRUE(library.ok()) << library.status();
  auto hits = library->knowledge().Search("why is the binder transaction to system_server slow");
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0]->topic, "binder_ipc");
  EXPECT_EQ(library->knowledge().Search("thermal_throttling")[0]->topic, "thermal_throttling");
  EXPECT_TRUE(library->knowledge().Search("zebra crossing").empty());
}

TEST(StrategyLibraryTest, MethodologyTemplateRendersWithStrategyValues) {
  auto library = StrategyLibrary::Load(DefaultStrategiesDir());
  ASSERT_TRUE(library.ok()) << library.status();
  const PromptTemplate* tmpl = library->FindTemplate("methodology");
  ASSERT_NE(tmpl, nullptr);
  EXPECT_EQ(TemplatePlaceholders(tmpl->body),
            (std::vector<std::string>{"scene", "plan_aspects", "strategy_body"}));
  auto missing = RenderTemplate(*tmpl, {{"scene", "scrolling"}});
  EXPECT_FALSE(missing.ok());
  auto text = RenderTemplate(
      *tmpl, {{"scene", "scrolling"}, {"plan_aspects", "- a"}, {"strategy_body", "B"}});
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_NE(text->find("scene: scrolling"), std::string::npos);
  EXPECT_EQ(text->find("{{"), std::string::npos);
}

class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / ("tw_strategy_" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  void Write(const std::string& name, const std::string& text) const {
    fs::create_directories((path_ / name).parent_path());
    std::ofstream(path_ / name) << text;
  }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

TEST(StrategyLibraryTest, RejectsDuplicateScenesAndMissingFallback) {
  TempDir dir;
  dir.Write("a.strategy.md", "---\nscene: a\nkeywords: [x]\n---\nbody\n");
  auto no_general = StrategyLibrary::Load(dir.path());
  ASSERT_FALSE(no_general.ok());
  EXPECT_NE(std::string(no_general.status().message()).find("no 'general'"), std::string::npos);

  dir.Write("general.strategy.md", "---\nscene: general\n---\nbody\n");
  dir.Write("b.strategy.md", "---\nscene: a\nkeywords: [y]\n---\nbody\n");
  auto duplicate = StrategyLibrary::Load(dir.path());
  ASSERT_FALSE(duplicate.ok());
  EXPECT_NE(std::string(duplicate.status().message()).find("declared twice"), std::string::npos);
}

TEST(StrategyLibraryTest, MissingDirectoryIsNotFound) {
  EXPECT_EQ(StrategyLibrary::Load("/nonexistent/strategies").status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace tw::strategy
