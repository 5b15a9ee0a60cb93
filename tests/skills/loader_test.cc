// The YAML loader: a complete skill loads into the model; every kind of mistake is reported with
// the file and the line (and column) where it was made.

#include "libs/skills/skill_loader.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tw::skills {
namespace {

using ::testing::HasSubstr;

constexpr char kComplete[] = R"yaml(name: frame_check
version: "2"
category: scrolling
description: Checks frames.
tags: [jank, frames]
inputs:
  - name: upid
    type: int
    required: true
    description: the process
  - name: min_dur
    type: duration_ns
    default: 16000000
  - name: mode
    type: enum
    values: [fast, full]
    default: fast
requires:
  tables: [sched]
  modules: [sched.states]
steps:
  - id: frames
    sql: SELECT ts, dur FROM sched WHERE utid = :upid AND dur > :min_dur
    max_rows: 50
    display:
      title: Frames
      level: list
      columns:
        - {name: dur, type: duration_ns, unit: ns}
  - id: overview
    skill: trace_overview
    optional: true
  - id: details
    for_each: frames
    max_items: 5
    when: "len(steps.frames.rows) > 0"
    step:
      sql: SELECT :ts AS ts
      params: {ts: row.ts}
  - id: verdict
    diagnose:
      - id: long
        over: frames
        condition: row.dur > inputs.min_dur * 2
        severity: critical
        title: "Long slice at {{ row.ts }}"
        description: "{{ row.dur }} ns"
        evidence: {fields: [ts, dur]}
        suggestions: ["look at {{ row.ts }}"]
        max_findings: 3
)yaml";

TEST(SkillLoaderTest, LoadsACompleteSkill) {
  LoadedSkill loaded = ParseSkillYaml(kComplete, "x.skill.yaml");
  ASSERT_TRUE(loaded.skill.has_value());
  for (const auto& d : loaded.diagnostics) ADD_FAILURE() << d.ToString();
  const Skill& s = *loaded.skill;
  EXPECT_EQ(s.name, "frame_check");
  EXPECT_EQ(s.version, "2");
  EXPECT_THAT(s.tags, ::testing::ElementsAre("jank", "frames"));
  ASSERT_EQ(s.inputs.size(), 3u);
  EXPECT_TRUE(s.inputs[0].required);
  EXPECT_EQ(s.inputs[1].type, InputType::kDurationNs);
  ASSERT_TRUE(s.inputs[1].default_value.has_value());
  EXPECT_EQ(s.inputs[1].default_value->int_value, 16000000);
  EXPECT_THAT(s.inputs[2].values, ::testing::ElementsAre("fast", "full"));
  EXPECT_THAT(s.required_modules, ::testing::ElementsAre("sched.states"));
  ASSERT_EQ(s.steps.size(), 4u);
  EXPECT_EQ(s.steps[0].kind, Step::Kind::kSql);
  EXPECT_EQ(s.steps[0].max_rows, 50);
  EXPECT_EQ(s.steps[0].location.line, 22);
  EXPECT_EQ(s.steps[0].display.columns[0].type, ColumnType::kDurationNs);
  EXPECT_EQ(s.steps[1].kind, Step::Kind::kSkill);
  EXPECT_TRUE(s.steps[1].optional);
  EXPECT_EQ(s.steps[2].kind, Step::Kind::kForEach);
  EXPECT_EQ(s.steps[2].max_items, 5);
  ASSERT_TRUE(s.steps[2].body);
  EXPECT_EQ(s.steps[2].body->id, "details");
  EXPECT_EQ(s.steps[2].body->params.count("ts"), 1u);
  ASSERT_EQ(s.steps[3].rules.size(), 1u);
  const Rule& r = s.steps[3].rules[0];
  EXPECT_EQ(r.severity, Severity::kCritical);
  EXPECT_EQ(r.over, "frames");
  EXPECT_THAT(r.evidence_fields, ::testing::ElementsAre("ts", "dur"));
  EXPECT_EQ(r.max_findings, 3);
}

// Replaces `from` in the complete skill with `to` and loads it; returns the diagnostics.
std::string Mutated(std::string_view from, std::string_view to) {
  std::string yaml = kComplete;
  const size_t at = yaml.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  yaml.replace(at, from.size(), to);
  LoadedSkill loaded = ParseSkillYaml(yaml, "s.skill.yaml");
  std::string out;
  for (const auto& d : loaded.diagnostics) out += d.ToString() + "\n";
  if (!out.empty()) {
    EXPECT_FALSE(loaded.skill.has_value()) << out;
  }
  return out;
}

TEST(SkillLoaderTest, ReportsMistakesWithFileAndLine) {
  EXPECT_THAT(Mutated("tags:", "tagz:"),
              HasSubstr("s.skill.yaml:5:1: error: unknown field 'tagz' in a skill"));
  EXPECT_THAT(Mutated("    max_rows: 50", "    max_row: 50"),
              HasSubstr("s.skill.yaml:24:5: error: unknown field 'max_row' in a step"));
  EXPECT_THAT(Mutated("len(steps.frames.rows) > 0", "len(steps.frames.rows) >"),
              HasSubstr("s.skill.yaml:36:11: error: invalid expression in when"));
  EXPECT_THAT(Mutated("type: duration_ns\n", "type: seconds\n"),
              HasSubstr(":12:11: error: unknown input type 'seconds'"));
  EXPECT_THAT(Mutated("default: fast", "default: slow"), HasSubstr("'slow' is not one of its values"));
  EXPECT_THAT(Mutated("default: 16000000", "default: soon"), HasSubstr("is not an integer"));
  EXPECT_THAT(Mutated("  - id: overview", "  - id: frames"), HasSubstr("duplicate step id 'frames'"));
  EXPECT_THAT(Mutated("    skill: trace_overview", "    skill: trace_overview\n    sql: SELECT 1"),
              HasSubstr("needs exactly one of sql, skill, for_each, diagnose"));
  EXPECT_THAT(Mutated("level: list", "level: huge"), HasSubstr("unknown display level 'huge'"));
  EXPECT_THAT(Mutated("type: duration_ns, unit", "type: seconds, unit"),
              HasSubstr("unknown column type 'seconds'"));
  EXPECT_THAT(Mutated("severity: critical", "severity: fatal"), HasSubstr("unknown severity 'fatal'"));
  EXPECT_THAT(Mutated("title: \"Long slice at {{ row.ts }}\"", "title: \"Long {{ row.ts \""),
              HasSubstr("unclosed '{{'"));
  EXPECT_THAT(Mutated("max_items: 5", "max_items: 100000"), HasSubstr("'max_items' must be an integer"));
  EXPECT_THAT(Mutated("    required: true\n", "    required: true\n    default: 3\n"),
              HasSubstr("a required input cannot have a default"));
  EXPECT_THAT(Mutated("params: {ts: row.ts}", "params: {ts: \"row.ts +\"}"),
              HasSubstr("invalid expression in params.ts"));
  EXPECT_THAT(Mutated("name: frame_check", "name: frame-check"), HasSubstr("must be an identifier"));
  EXPECT_THAT(Mutated("    values: [fast, full]\n", ""), HasSubstr("enum input 'mode' needs 'values'"));
}

TEST(SkillLoaderTest, YamlSyntaxErrorsAndMissingParts) {
  LoadedSkill bad = ParseSkillYaml("name: x\nsteps: [\n", "bad.skill.yaml");
  ASSERT_EQ(bad.diagnostics.size(), 1u);
  EXPECT_THAT(bad.diagnostics[0].ToString(), HasSubstr("bad.skill.yaml:3"));
  EXPECT_THAT(bad.diagnostics[0].message, HasSubstr("YAML syntax"));

  LoadedSkill empty = ParseSkillYaml("name: x\nversion: 1\ncategory: c\ndescription: d\n", "e.yaml");
  ASSERT_FALSE(empty.skill);
  EXPECT_THAT(empty.diagnostics[0].message, HasSubstr("needs 'steps'"));

  LoadedSkill list = ParseSkillYaml("- 1\n- 2\n", "l.yaml");
  ASSERT_FALSE(list.skill);
  EXPECT_THAT(list.diagnostics[0].message, HasSubstr("a skill must be a mapping"));
}

}  // namespace
}  // namespace tw::skills
