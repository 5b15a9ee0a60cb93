// How the shipped strategies read the questions people write: every phrasing in
// tools/eval/questions.yaml (English and Chinese, at least ten per scene) reaches its scene, and
// the question reader tells yes/no questions, questions about change over time, general
// questions and named apps apart.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <vector>

#include "libs/strategy/question_reader.h"
#include "libs/strategy/strategy_library.h"

namespace tw::strategy {
namespace {

std::map<std::string, std::vector<std::string>> QuestionSets() {
  std::map<std::string, std::vector<std::string>> out;
  const YAML::Node root = YAML::LoadFile(TW_SOURCE_DIR "/tools/eval/questions.yaml");
  for (const auto& entry : root) {
    for (const auto& q : entry.second) out[entry.first.as<std::string>()].push_back(q.as<std::string>());
  }
  return out;
}

bool HasCjk(const std::string& s) {
  for (unsigned char c : s) {
    if (c >= 0xE0) return true;
  }
  return false;
}

TEST(QuestionReadingTest, EveryPhrasingReachesItsScene) {
  auto library = StrategyLibrary::Load(DefaultStrategiesDir());
  ASSERT_TRUE(library.ok()) << library.status();
  const auto sets = QuestionSets();
  ASSERT_GE(sets.size(), 8u);
  for (const auto& [scene, questions] : sets) {
    ASSERT_NE(library->Find(scene), nullptr) << scene;
    size_t english = 0, chinese = 0;
    for (const std::string& q : questions) {
      (HasCjk(q) ? chinese : english) += 1;
      const SceneMatch m = library->classifier().Classify(q);
      EXPECT_EQ(m.scene, scene) << "'" << q << "' went to " << m.scene << " (" << m.matched_by
                                << " '" << m.evidence << "')";
    }
    EXPECT_GE(questions.size(), 10u) << scene;
    EXPECT_GE(english, 5u) << scene;
    EXPECT_GE(chinese, 3u) << scene;
  }
}

TEST(QuestionReadingTest, YesNoOverTimeGeneralAndPackages) {
  auto library = StrategyLibrary::Load(DefaultStrategiesDir());
  ASSERT_TRUE(library.ok()) << library.status();
  const QuestionReader& r = library->questions();
  for (const char* q : {"Is scrolling smooth?", "Does the app drop frames while scrolling?",
                        "Are there dropped frames?", "Did the app hang?", "滑动是否流畅？",
                        "内存泄漏了吗？", "有没有降频", "Isn't the startup fast enough?"}) {
    EXPECT_TRUE(r.Read(q).yes_no) << q;
  }
  for (const char* q : {"Why does scrolling stutter?", "How fast does com.example.feed start?",
                        "What caused this ANR?", "为什么滑动的时候掉帧？", "Which threads use the most CPU?"}) {
    EXPECT_FALSE(r.Read(q).yes_no) << q;
  }
  for (const char* q : {"Why does scrolling get worse after a while?", "it gets slower over time",
                        "刷了一会儿之后滑动越来越卡", "the app degrades the longer it runs"}) {
    EXPECT_TRUE(r.Read(q).over_time) << q;
  }
  EXPECT_FALSE(r.Read("Why does scrolling stutter?").over_time);
  for (const char* q : {"What's wrong with this trace?", "Give me an overview", "Any performance problems?",
                        "这个trace有什么问题"}) {
    EXPECT_TRUE(r.Read(q).general) << q;
  }
  EXPECT_EQ(r.Read("Why does com.example.news drop frames?").package, "com.example.news");
  EXPECT_EQ(r.Read("why is trace.pftrace slow?").package, "");
  // Whether a yes/no question asks for health or for the problem, by the scene's words.
  const Strategy* scrolling = library->Find("scrolling");
  ASSERT_NE(scrolling, nullptr);
  EXPECT_TRUE(QuestionReader::AsksHealthy("Is scrolling smooth?", *scrolling));
  EXPECT_TRUE(QuestionReader::AsksHealthy("滑动是否流畅？", *scrolling));
  EXPECT_FALSE(QuestionReader::AsksHealthy("Does the app drop frames?", *scrolling));
}

TEST(QuestionReadingTest, AmbiguousQuestionsNameTheRunnerUp) {
  auto library = StrategyLibrary::Load(DefaultStrategiesDir());
  ASSERT_TRUE(library.ok()) << library.status();
  // Freezing while scrolling: an ANR-like hang or scroll jank; the classifier picks one and
  // names the other, so the analyst can look at both.
  const SceneMatch m = library->classifier().Classify("the list freezes while I scroll");
  EXPECT_EQ(m.scene, "anr");
  EXPECT_EQ(m.runner_up, "scrolling");
}

}  // namespace
}  // namespace tw::strategy
