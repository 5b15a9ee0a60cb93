#include "tools/eval/scoring.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "libs/agent/report_record.h"
#include "libs/verify/grounding.h"
#include "libs/verify/stated_numbers.h"

namespace tw::eval {
namespace {

std::string Lower(const std::string& s) { return absl::AsciiStrToLower(s); }

bool Severe(const agent::ReportFinding& f) { return f.severity <= agent::FindingSeverity::kHigh; }

// Grounding as the verifier judges it: numbers in `text` against the artifacts cited.
void Ground(const std::string& text, const std::vector<std::string>& evidence,
            const agent::AnalysisReport& report, Score& s) {
  std::vector<verify::Artifact> artifacts;
  for (const std::string& id : evidence) {
    if (const skills::StepResult* a = report.FindArtifact(id)) artifacts.push_back(agent::ToVerifyArtifact(*a));
  }
  std::vector<const verify::Artifact*> cited;
  for (const auto& a : artifacts) cited.push_back(&a);
  for (const verify::StatedNumber& n : verify::FindStatedNumbers(text)) {
    if (n.is_threshold || verify::IsWellKnownConstant(n)) continue;
    if (n.unit == verify::NumberUnit::kNone && n.value < 10) continue;
    ++s.stated_numbers;
    if (verify::IsGrounded(n, cited)) {
      ++s.grounded_numbers;
    } else {
      s.notes.push_back(absl::StrCat("ungrounded: ", n.text));
    }
  }
}

}  // namespace

Score ScoreReport(const agent::AnalysisReport& report, const Case& c, const Suite& suite,
                  const strategy::QuestionIntent& intent) {
  Score s;
  s.has_problem = !c.expect.clean && !c.expect.causes.empty();
  const size_t top = std::min(report.findings.size(), static_cast<size_t>(suite.top_findings));
  std::string top_text;
  for (size_t i = 0; i < top; ++i) {
    top_text += " " + Lower(report.findings[i].title + " " + report.findings[i].description);
  }
  if (s.has_problem) {
    s.detected = true;
    for (const std::string& cause : c.expect.causes) {
      bool found = false;
      for (size_t i = 0; i < top; ++i) found |= report.findings[i].cause == cause;
      auto words = suite.cause_words.find(cause);
      if (words != suite.cause_words.end()) {
        for (const std::string& w : words->second) found |= top_text.find(Lower(w)) != std::string::npos;
      }
      if (!found) {
        s.detected = false;
        s.notes.push_back(absl::StrCat("not detected: ", cause));
      }
    }
    s.attributed = true;
    for (const std::string& name : c.expect.name) {
      if (top_text.find(Lower(name)) == std::string::npos) {
        s.attributed = false;
        s.notes.push_back(absl::StrCat("not named: ", name));
      }
    }
  }
  for (const agent::ReportFinding& f : report.findings) {
    if (!Severe(f)) continue;
    const std::string text = Lower(f.title + " " + f.description);
    if (c.expect.clean) {
      s.false_positive = true;
      s.notes.push_back(absl::StrCat("severe on a clean trace: ", f.title));
    }
    for (const std::string& decoy : c.expect.not_blamed) {
      if (text.find(Lower(decoy)) != std::string::npos) {
        s.false_positive = true;
        s.notes.push_back(absl::StrCat("blames a decoy (", decoy, "): ", f.title));
      }
    }
  }
  for (const agent::ReportFinding& f : report.findings) Ground(f.title + "\n" + f.description, f.evidence, report, s);
  Ground(report.answer, report.answer_evidence, report, s);

  const bool has_number = std::any_of(report.answer.begin(), report.answer.end(),
                                      [](char ch) { return absl::ascii_isdigit(static_cast<unsigned char>(ch)); });
  s.answered = !report.answer.empty() && has_number;
  if (intent.yes_no) {
    s.answered &= report.answer.rfind("Yes", 0) == 0 || report.answer.rfind("No", 0) == 0 ||
                  report.answer.rfind("Cannot tell", 0) == 0;
  }
  if (!s.answered) s.notes.push_back(absl::StrCat("no direct answer: ", report.answer));
  s.routed = report.scene == c.question_set || c.question_set == report.scene;
  if (!s.routed) s.notes.push_back(absl::StrCat("routed to ", report.scene));
  return s;
}

}  // namespace tw::eval
