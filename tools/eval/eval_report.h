#pragma once
// The benchmark's table: per scene and overall, detection, attribution, false positives,
// grounding, direct answers, routing and time per diagnosis; as Markdown (the README's table)
// or JSON (`--format json`, with every diagnosis).

#include <string>
#include <vector>

#include "tools/eval/eval_runner.h"

namespace tw::eval {

struct Row {
  std::string scene;  // "overall" for the last row
  int diagnoses = 0;
  int with_problem = 0, detected = 0, attributed = 0;
  int false_positives = 0;
  int stated_numbers = 0, grounded_numbers = 0;
  int answered = 0, routed = 0;
  int64_t p50_ns = 0, p95_ns = 0, max_ns = 0;

  double DetectionPct() const;
  double AttributionPct() const;
  double GroundingPct() const;
};

// One row per scene, in suite order of first appearance, then "overall".
std::vector<Row> Summarize(const EvalResult& result);
// True when detection and attribution are 100 %, there is no false positive and every stated
// number is grounded.
bool Perfect(const std::vector<Row>& rows);

std::string RenderTable(const EvalResult& result, const std::vector<Row>& rows, bool details);
std::string RenderJson(const EvalResult& result, const std::vector<Row>& rows);

}  // namespace tw::eval
