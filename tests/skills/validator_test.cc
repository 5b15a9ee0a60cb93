// The validator: references, SQL parameters, calls, and the checks against the engine's empty
// schema; and the shipped skill library (skills/) validates without errors.

#include "libs/skills/skill_validator.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tw::skills {
namespace {

using ::testing::HasSubstr;

std::string Header(std::string_view name = "checked") {
  return absl::StrCat("name: ", std::string(name),
                      "\nversion: '1'\ncategory: test\ndescription: test skill\n");
}

// Loads `yaml` as a skill into a library holding also a callee skill, validates it and returns
// all diagnostics as text.
std::string Validate(const std::string& yaml, bool engine = true) {
  std::vector<Diagnostic> diags;
  SkillLibrary library;
  LoadedSkill callee = ParseSkillYaml(Header("callee") + R"yaml(inputs:
  - {name: utid, type: int, required: true}
  - {name: limit, type: int, default: 5}
steps:
  - id: top
    sql: SELECT utid, COUNT(*) AS n FROM sched WHERE utid = :utid GROUP BY utid LIMIT :limit
)yaml",
                                      "callee.skill.yaml");
  EXPECT_TRUE(callee.skill);
  library.Add(*callee.skill, &diags);
  LoadedSkill loaded = ParseSkillYaml(yaml, "t.skill.yaml");
  for (const auto& d : loaded.diagnostics) diags.push_back(d);
  if (loaded.skill) {
    library.Add(*loaded.skill, &diags);
    ValidationOptions options;
    options.check_against_engine = engine;
    ValidateSkill(*loaded.skill, library, options, &diags);
  }
  std::string out;
  for (const auto& d : diags) out += d.ToString() + "\n";
  return out;
}

TEST(SkillValidatorTest, ACorrectSkillIsClean) {
  EXPECT_EQ(Validate(Header() + R"yaml(inputs:
  - {name: utid, type: int, required: true}
requires:
  tables: [sched]
  modules: [sched.states]
steps:
  - id: slices
    sql: |
      INCLUDE PERFETTO MODULE sched.states;
      SELECT ts, dur, cpu FROM sched WHERE utid = :utid ORDER BY dur DESC
    display:
      columns: [{name: dur, type: duration_ns}]
  - id: call
    skill: callee
    args: {utid: inputs.utid}
  - id: each
    for_each: slices
    max_items: 3
    step:
      sql: SELECT :ts AS ts, :cpu AS cpu
      params: {ts: row.ts, cpu: row.cpu}
  - id: verdict
    diagnose:
      - id: long
        over: slices
        condition: row.dur > 1000000 and len(steps.each.rows) > 0
        severity: warning
        title: "long slice {{ row.dur }}"
        evidence: {fields: [ts, dur]}
)yaml"),
            "");
}

TEST(SkillValidatorTest, ReferencesAndParameters) {
  const std::string out = Validate(Header() + R"yaml(inputs:
  - {name: utid, type: int}
  - {name: unused, type: string}
steps:
  - id: first
    when: steps.second.row_count > 0 and inputs.nope == 1
    sql: SELECT ts FROM sched WHERE utid = :utid AND cpu = :cpu AND dur > ?
  - id: second
    sql: SELECT :x AS x
    params: {x: row.ts, y: "1"}
  - id: third
    when: steps.first.rows[0].no_such_column > 1
    sql: SELECT 1 AS one
  - id: verdict
    diagnose:
      - id: r
        over: missing
        condition: "true"
        severity: info
        title: t
        evidence: {step: first, fields: [ts, bogus]}
)yaml");
  EXPECT_THAT(out, HasSubstr("t.skill.yaml:9:5: error: when: 'steps.second' is not an earlier step"));
  EXPECT_THAT(out, HasSubstr("when: no input 'nope'"));
  EXPECT_THAT(out, HasSubstr("t.skill.yaml:11:10: error: SQL parameter ':cpu' is neither an input"));
  EXPECT_THAT(out, HasSubstr("SQL parameter '?': only :name parameters are allowed"));
  EXPECT_THAT(out, HasSubstr("params.x: 'row' is only available in for_each bodies"));
  EXPECT_THAT(out, HasSubstr("warning: param 'y' is not used by the SQL"));
  EXPECT_THAT(out, HasSubstr("warning: input 'unused' is never used"));
  EXPECT_THAT(out, HasSubstr("step 'first' has no column 'no_such_column' (it has: ts)"));
  EXPECT_THAT(out, HasSubstr("over 'missing' is not an earlier step"));
  EXPECT_THAT(out, HasSubstr("step 'first' has no column 'bogus'"));
}

TEST(SkillValidatorTest, SkillCalls) {
  const std::string out = Validate(Header() + R"yaml(steps:
  - id: a
    skill: callee
    args: {limit: 3, colour: "'red'"}
  - id: b
    skill: nonexistent
  - id: c
    skill: checked
)yaml");
  EXPECT_THAT(out, HasSubstr("skill 'callee' has no input 'colour'"));
  EXPECT_THAT(out, HasSubstr("skill 'callee' needs input 'utid'"));
  EXPECT_THAT(out, HasSubstr("calls unknown skill 'nonexistent'"));
  EXPECT_THAT(out, HasSubstr("a skill cannot call itself"));
}

TEST(SkillValidatorTest, CallCycles) {
  std::vector<Diagnostic> diags;
  SkillLibrary library;
  for (const auto& [name, callee] : std::vector<std::pair<std::string, std::string>>{
           {"a", "b"}, {"b", "c"}, {"c", "a"}}) {
    LoadedSkill s = ParseSkillYaml(Header(name) + "steps:\n  - id: call\n    skill: " + callee + "\n",
                                   name + ".skill.yaml");
    ASSERT_TRUE(s.skill);
    library.Add(*s.skill, &diags);
  }
  ValidationOptions options;
  options.check_against_engine = false;
  ValidateSkill(*library.Find("a"), library, options, &diags);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].ToString(), "a.skill.yaml:1:1: error: skill calls form a cycle: a -> b -> c -> a");
}

TEST(SkillValidatorTest, AgainstTheEngineSchema) {
  const std::string out = Validate(Header() + R"yaml(requires:
  tables: [sched, no_such_table]
  modules: [android.not_a_module_yet]
steps:
  - id: a
    sql: SELECT 1
)yaml");
  EXPECT_THAT(out, HasSubstr("t.skill.yaml:6:3: warning: requires module 'android.not_a_module_yet', "
                             "which this engine does not provide"));

  const std::string tables = Validate(Header() + R"yaml(requires:
  tables: [sched, no_such_table]
steps:
  - id: a
    sql: SELECT 1 AS one
)yaml");
  EXPECT_THAT(tables, HasSubstr("requires table 'no_such_table', which is not in the engine's schema"));

  const std::string sql = Validate(Header() + R"yaml(steps:
  - id: a
    sql: |
      SELECT ts, no_such_col FROM sched
  - id: b
    sql: SELECT dur FROM sched
    display:
      columns: [{name: dur, type: duration_ns}, {name: ts, type: timestamp_ns}]
  - id: c
    sql: DELETE FROM sched
)yaml");
  EXPECT_THAT(sql, HasSubstr("t.skill.yaml:7:10: error: SQL of step 'a' fails on the empty schema: "
                             "no such column: no_such_col"));
  EXPECT_THAT(sql, HasSubstr("display column 'ts' is not produced by step 'b' (it has: dur)"));
  EXPECT_THAT(sql, HasSubstr("SQL of step 'c' fails"));
  // Without the engine, only the static checks run.
  EXPECT_EQ(Validate(Header() + "steps:\n  - id: a\n    sql: SELECT nonsense FROM nowhere\n",
                     /*engine=*/false),
            "");
}

TEST(SkillValidatorTest, SqlParameterNames) {
  std::vector<std::string> other;
  EXPECT_THAT(SqlParameterNames("SELECT :a, ':b', \":c\", :a -- :d\n, $e, @f, ?1, ? FROM t WHERE x=:g",
                                &other),
              ::testing::ElementsAre("a", "g"));
  EXPECT_THAT(other, ::testing::ElementsAre("$e", "@f", "?1", "?"));
}

// The library this repository ships must validate (CI runs the same check via the CLI).
TEST(SkillValidatorTest, ShippedLibraryHasNoErrors) {
  const std::string dir = TW_SOURCE_DIR "/skills";
  const std::vector<Diagnostic> diags = ValidateSkillDirectory(dir);
  int errors = 0;
  for (const auto& d : diags) {
    if (!d.warning) {
      ++errors;
      ADD_FAILURE() << d.ToString();
    }
  }
  EXPECT_EQ(errors, 0);
  EXPECT_GT(FindSkillFiles(dir).size(), 0u);
}

}  // namespace
}  // namespace tw::skills
