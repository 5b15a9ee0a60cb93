// The expression language: parsing (with error positions), evaluation semantics over real step
// results, and the references the validator reads.

#include "libs/skills/expression.h"

#include <map>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/skills/step_result.h"

namespace tw::skills {
namespace {

using ::testing::HasSubstr;

// A scope over concrete inputs and step results (the same data structures the executor fills).
class MapScope : public ExprScope {
 public:
  std::map<std::string, SqlValue> inputs;
  std::map<std::string, const StepResult*> steps;
  const StepResult* row_result = nullptr;
  size_t row_index = 0;

  absl::StatusOr<ExprValue> Input(std::string_view name) const override {
    auto it = inputs.find(std::string(name));
    if (it == inputs.end()) return absl::NotFoundError("no input");
    return ExprValue::FromSql(it->second);
  }
  absl::StatusOr<ExprValue> Step(std::string_view id) const override {
    auto it = steps.find(std::string(id));
    if (it == steps.end()) return absl::NotFoundError(absl::StrCat("no step ", std::string(id)));
    if (!it->second) return ExprValue::Null();
    return ExprValue{ExprValue::Result{it->second}};
  }
  absl::StatusOr<ExprValue> CurrentRow() const override {
    if (!row_result) return absl::NotFoundError("no row here");
    return ExprValue{ExprValue::Row{row_result, row_index}};
  }
};

StepResult Frames() {
  StepResult r;
  r.step = "frames";
  r.columns = {{"frame_id", ColumnType::kNumber, ""}, {"dur", ColumnType::kDurationNs, ""},
               {"jank", ColumnType::kString, ""}};
  r.rows = {{SqlValue::Int(1), SqlValue::Int(8'000'000), SqlValue::String("None")},
            {SqlValue::Int(2), SqlValue::Int(40'000'000), SqlValue::String("App Deadline Missed")},
            {SqlValue::Int(3), SqlValue::Null(), SqlValue::String("Buffer Stuffing")}};
  return r;
}

class ExpressionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    frames_ = Frames();
    scope_.inputs = {{"pid", SqlValue::Int(42)}, {"name", SqlValue::String("com.example")},
                     {"none", SqlValue::Null()}};
    scope_.steps = {{"frames", &frames_}, {"skipped", nullptr}};
  }
  ExprValue Eval(std::string_view text) {
    auto e = Expression::Parse(text);
    EXPECT_TRUE(e.ok()) << text << ": " << e.status();
    if (!e.ok()) return {};
    auto v = e->Evaluate(scope_);
    EXPECT_TRUE(v.ok()) << text << ": " << v.status();
    return v.ok() ? *v : ExprValue{};
  }
  std::string EvalText(std::string_view text) { return Eval(text).ToString(); }
  absl::Status EvalError(std::string_view text) {
    auto e = Expression::Parse(text);
    if (!e.ok()) return e.status();
    return e->Evaluate(scope_).status();
  }
  StepResult frames_;
  MapScope scope_;
};

TEST_F(ExpressionTest, ArithmeticAndPrecedence) {
  EXPECT_EQ(EvalText("1 + 2 * 3"), "7");
  EXPECT_EQ(EvalText("(1 + 2) * 3"), "9");
  EXPECT_EQ(EvalText("-4 + 10 % 3"), "-3");
  EXPECT_EQ(EvalText("7 / 2"), "3.5");  // division is always real
  EXPECT_EQ(EvalText("1.5e3 - 500"), "1000");
  EXPECT_TRUE(Eval("1 / 0").is_null());
  EXPECT_EQ(EvalText("'a' + 'b'"), "ab");
  EXPECT_THAT(EvalError("9223372036854775807 + 1").message(), HasSubstr("overflow"));
  EXPECT_EQ(EvalText("'took ' + 12.5 + ' ms'"), "took 12.5 ms");  // numbers join text as written
  EXPECT_THAT(EvalError("'a' + true").message(), HasSubstr("cannot apply '+'"));
  EXPECT_TRUE(Eval("'a' + null").is_null());
  EXPECT_EQ(EvalText("if(2 > 1, 'yes', 'no')"), "yes");
  EXPECT_EQ(EvalText("if(null, 1, 2)"), "2");
  EXPECT_THAT(EvalError("if(1, 2)").message(), HasSubstr("three arguments"));
}

TEST_F(ExpressionTest, ComparisonsAndLogic) {
  EXPECT_EQ(EvalText("3 > 2.5 and 2 == 2.0"), "true");
  EXPECT_EQ(EvalText("'abc' < 'abd'"), "true");
  EXPECT_EQ(EvalText("not 1 == 2 or false"), "true");
  EXPECT_EQ(EvalText("null == null"), "true");
  EXPECT_EQ(EvalText("null != 0"), "true");
  EXPECT_TRUE(Eval("null < 1").is_null());
  EXPECT_FALSE(Eval("null < 1").Truthy());
  // Short-circuit: the right side would be an error.
  EXPECT_EQ(EvalText("false and 'x' < 1"), "false");
  EXPECT_EQ(EvalText("true or 'x' < 1"), "true");
  EXPECT_THAT(EvalError("'x' < 1").message(), HasSubstr("cannot compare"));
  EXPECT_EQ(EvalText("3 in [1, 2, 3]"), "true");
  EXPECT_EQ(EvalText("'b' not in ['a', 'c']"), "true");
  EXPECT_EQ(EvalText("'Deadline' in steps.frames.rows[1].jank"), "true");
  EXPECT_EQ(EvalText("false && true || !false"), "true") << "aliases parse";
}

TEST_F(ExpressionTest, InputsStepsRowsAndFunctions) {
  EXPECT_EQ(EvalText("inputs.pid + 1"), "43");
  EXPECT_EQ(EvalText("inputs.name"), "com.example");
  EXPECT_TRUE(Eval("inputs.none").is_null());
  EXPECT_EQ(EvalText("len(steps.frames.rows)"), "3");
  EXPECT_EQ(EvalText("steps.frames.row_count"), "3");
  EXPECT_EQ(EvalText("steps.frames.rows[1].dur / 1000000"), "40");
  EXPECT_EQ(EvalText("steps.frames.rows[-1].frame_id"), "3");
  EXPECT_TRUE(Eval("steps.frames.rows[10].dur").is_null()) << "out of range is null";
  EXPECT_TRUE(Eval("steps.frames.rows[2].dur > 0").is_null());
  EXPECT_EQ(EvalText("steps.frames.status"), "ok");
  EXPECT_EQ(EvalText("'jank' in steps.frames.columns"), "true");
  EXPECT_EQ(EvalText("2 in steps.frames.rows"), "true") << "first column";
  EXPECT_TRUE(Eval("steps.skipped.rows[0].x").is_null()) << "a step that did not run is null";
  EXPECT_EQ(EvalText("len(steps.skipped)"), "0");
  EXPECT_EQ(EvalText("max(1, 5.5, null, 3)"), "5.5");
  EXPECT_EQ(EvalText("min(4, 2, 9)"), "2");
  EXPECT_EQ(EvalText("abs(-7)"), "7");
  EXPECT_EQ(EvalText("coalesce(null, steps.frames.rows[2].dur, 99)"), "99");
  EXPECT_EQ(EvalText("len('abcd')"), "4");
  EXPECT_THAT(EvalError("steps.frames.rows[0].missing").message(),
              HasSubstr("no column 'missing' in the rows of step 'frames'"));
  EXPECT_THAT(EvalError("steps.unknown.rows").message(), HasSubstr("no step unknown"));
  EXPECT_THAT(EvalError("row.dur").message(), HasSubstr("no row here"));
  scope_.row_result = &frames_;
  scope_.row_index = 1;
  EXPECT_EQ(EvalText("row.dur > 16000000 and row.jank != 'None'"), "true");
}

TEST_F(ExpressionTest, JsonPassesResultsToSql) {
  EXPECT_EQ(EvalText("json(steps.frames.rows)"),
            "[{\"frame_id\":1,\"dur\":8000000,\"jank\":\"None\"},"
            "{\"frame_id\":2,\"dur\":40000000,\"jank\":\"App Deadline Missed\"},"
            "{\"frame_id\":3,\"dur\":null,\"jank\":\"Buffer Stuffing\"}]");
  EXPECT_EQ(EvalText("json(steps.frames.rows[1])"),
            "{\"frame_id\":2,\"dur\":40000000,\"jank\":\"App Deadline Missed\"}");
  EXPECT_EQ(EvalText("json([1, 'a\"b', true, null, 2.5])"), "[1,\"a\\\"b\",true,null,2.5]");
  EXPECT_THAT(EvalError("json(steps.frames)").message(), HasSubstr("json() of a step result"));
}

TEST_F(ExpressionTest, ParseErrorsCarryOffsets) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"1 +", "offset 3: unexpected end"},
           {"foo.bar", "offset 0: unknown name 'foo'"},
           {"len(1, 2)", "len() takes one argument"},
           {"system('rm')", "unknown function 'system'"},
           {"'open", "offset 0: unterminated string"},
           {"1 2", "offset 2: unexpected '2'"},
           {"steps.x.rows[0", "expected ']'"},
           {"a ; b", "unexpected character ';'"},
           {"inputs.", "expected a name after '.'"},
       }) {
    auto e = Expression::Parse(c.text);
    ASSERT_FALSE(e.ok()) << c.text;
    EXPECT_THAT(e.status().message(), HasSubstr(c.message)) << c.text;
  }
  std::string deep(200, '(');
  deep += "1" + std::string(200, ')');
  EXPECT_THAT(Expression::Parse(deep).status().message(), HasSubstr("nested too deeply"));
}

TEST_F(ExpressionTest, ReferencesForValidation) {
  auto e = Expression::Parse(
      "inputs.pid > 0 and steps.frames.rows[inputs.idx].dur > 1 and row.ts > 0 and "
      "len(steps.other.rows) > 0");
  ASSERT_TRUE(e.ok());
  std::vector<std::string> seen;
  for (const auto& r : e->References()) {
    seen.push_back(absl::StrCat(static_cast<int>(r.kind), ":", r.name, ":", r.column));
  }
  EXPECT_THAT(seen, ::testing::UnorderedElementsAre("0:pid:", "1:frames:dur", "0:idx:", "2:ts:",
                                                    "1:other:"));
}

TEST_F(ExpressionTest, Templates) {
  auto t = Template::Parse("Frame {{ steps.frames.rows[1].frame_id }} took {{ steps.frames.rows[1].dur / 1e6 }} ms");
  ASSERT_TRUE(t.ok()) << t.status();
  auto s = t->Render(scope_);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, "Frame 2 took 40 ms");
  EXPECT_THAT(Template::Parse("a {{ 1 +").status().message(), HasSubstr("unclosed"));
  EXPECT_THAT(Template::Parse("a {{ nope }}").status().message(), HasSubstr("unknown name 'nope'"));
  auto plain = Template::Parse("no holes");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(*plain->Render(scope_), "no holes");
}

}  // namespace
}  // namespace tw::skills
