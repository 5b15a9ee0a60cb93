#include "libs/strategy/scene_classifier.h"

#include <gtest/gtest.h>

#include "libs/strategy/strategy_library.h"

namespace tw::strategy {
namespace {

Strategy Scene(std::string name, int priority, std::vector<std::string> keywords,
               std::vector<std::string> patterns = {}) {
  Strategy s;
  s.scene = std::move(name);
  s.priority = priority;
  s.keywords = std::move(keywords);
  s.patterns = std::move(patterns);
  return s;
}

TEST(SceneClassifierTest, PatternsBeatKeywordsAndPriorityOrdersScenes) {
  SceneClassifier c({Scene("scrolling", 80, {"slow"}), Scene("startup", 90, {"launch"},
                                                            {R"(\bslow\b.*\bstart)"})});
  // "slow" is a scrolling keyword, but the startup pattern says more.
  EXPECT_EQ(c.Classify("why is the app slow to start?").scene, "startup");
  EXPECT_EQ(c.Classify("why is the app slow to start?").matched_by, "pattern");
  EXPECT_EQ(c.Classify("it feels slow").scene, "scrolling");
  EXPECT_EQ(c.Classify("it feels slow").matched_by, "keyword");
  EXPECT_EQ(c.Classify("what is in this trace").scene, "general");
  EXPECT_EQ(c.Classify("what is in this trace").matched_by, "fallback");
}

TEST(SceneClassifierTest, KeywordsNeedAWordStartButNotAWordEnd) {
  SceneClassifier c({Scene("scrolling", 1, {"lag", "jank"})});
  EXPECT_EQ(c.Classify("does this flag matter").scene, "general");
  EXPECT_EQ(c.Classify("so many JANKY frames").scene, "scrolling");
}

TEST(SceneClassifierTest, ChineseKeywordsMatchInsideSentences) {
  SceneClassifier c({Scene("scrolling", 1, {"卡顿"}), Scene("startup", 2, {"冷启动"})});
  EXPECT_EQ(c.Classify("为什么列表滑动卡顿？").scene, "scrolling");
  EXPECT_EQ(c.Classify("冷启动为什么这么慢").scene, "startup");
}

// The shipped strategies must route typical questions, in both languages, to the right scene.
TEST(SceneClassifierTest, ShippedStrategiesRouteTypicalQuestions) {
  auto library = StrategyLibrary::Load(DefaultStrategiesDir());
  ASSERT_TRUE(library.ok()) << library.status();
  const SceneClassifier& c = library->classifier();
  const std::pair<const char*, const char*> cases[] = {
      {"why does scrolling stutter?", "scrolling"},
      {"Why are there so many janky frames in the feed?", "scrolling"},
      {"为什么滑动的时候掉帧", "scrolling"},
      {"why is cold start slow?", "startup"},
      {"The app takes 3 seconds to launch", "startup"},
      {"冷启动耗时太长", "startup"},
      {"what caused this ANR?", "anr"},
      {"应用无响应是什么原因", "anr"},
      {"tapping the button responds slowly", "interaction"},
      {"点击按钮反应慢", "interaction"},
      {"is the device thermal throttling?", "cpu"},
      {"which threads use the most CPU", "cpu"},
      {"why is memory growing, is there a leak?", "memory"},
      {"what drains the battery here", "power"},
      {"give me an overview of this trace", "general"},
      {"hello", "general"},
  };
  for (const auto& [question, scene] : cases) {
    EXPECT_EQ(c.Classify(question).scene, scene) << question;
  }
}

}  // namespace
}  // namespace tw::strategy
