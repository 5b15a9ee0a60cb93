#include "libs/agent/answer_line.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tw::agent {
namespace {

const SceneSignalReading* Signal(const std::vector<SceneSignalReading>& signals,
                                 const std::string& scene) {
  for (const auto& s : signals) {
    if (s.scene == scene) return &s;
  }
  return nullptr;
}

std::string Verdict(const strategy::Strategy* s, bool problem) {
  if (!s) return problem ? "there is a problem" : "no problem";
  const std::string& words = problem ? s->verdict.problem : s->verdict.healthy;
  if (!words.empty()) return words;
  return absl::StrCat(s->title.empty() ? s->scene : s->title, problem ? " shows a problem" : " looks healthy");
}

// "<verdict>: <summary>", citing the signal.
std::string Stated(const strategy::Strategy* s, const SceneSignalReading& r,
                   std::vector<std::string>& evidence) {
  if (!r.artifact_id.empty()) evidence.push_back(r.artifact_id);
  std::string text = Verdict(s, r.problem);
  if (!r.summary.empty()) absl::StrAppend(&text, " (", r.summary, ")");
  return text;
}

// The most important finding of `scene` that names a cause (findings come ranked), at medium
// severity or above; failing that, its most important high or critical finding.
const ReportFinding* MainCause(const std::vector<ReportFinding>& findings, const std::string& scene) {
  for (const ReportFinding& f : findings) {
    if (f.scene == scene && !f.cause.empty() && f.severity <= FindingSeverity::kMedium) return &f;
  }
  for (const ReportFinding& f : findings) {
    if (f.scene == scene && f.severity <= FindingSeverity::kHigh) return &f;
  }
  return nullptr;
}

std::string Capitalized(std::string text) {
  if (!text.empty()) text[0] = absl::ascii_toupper(static_cast<unsigned char>(text[0]));
  return text;
}

std::string Sentence(std::string text) {
  text = Capitalized(std::move(text));
  if (!text.empty() && text.back() != '.') text += '.';
  return text;
}

}  // namespace

AnswerLine ComposeAnswer(const std::string& question, const strategy::QuestionIntent& intent,
                         const ScenePlan& plan, const std::vector<SceneSignalReading>& signals,
                         const strategy::StrategyLibrary& strategies,
                         const std::vector<ReportFinding>& findings) {
  AnswerLine out;
  std::vector<const SceneSignalReading*> problems;
  for (const auto& s : signals) {
    if (s.problem) problems.push_back(&s);
  }
  auto cause_of = [&](const std::string& scene) {
    std::string text;
    if (const ReportFinding* f = MainCause(findings, scene)) {
      text = absl::StrCat("; main cause: ", f->title);
      out.evidence.insert(out.evidence.end(), f->evidence.begin(), f->evidence.end());
    }
    return text;
  };

  if (plan.primary == "general") {
    const strategy::Strategy* general = strategies.Find("general");
    const bool asks_healthy = intent.yes_no && general &&
                              strategy::QuestionReader::AsksHealthy(question, *general);
    std::string prefix = intent.yes_no ? (asks_healthy == problems.empty() ? "Yes — " : "No — ") : "";
    // The general scene's own signal states the trace's facts.
    const SceneSignalReading* facts = Signal(signals, "general");
    std::string facts_text;
    if (facts && facts->has_data && !facts->summary.empty()) {
      facts_text = absl::StrCat("; the trace: ", facts->summary);
      if (!facts->artifact_id.empty()) out.evidence.push_back(facts->artifact_id);
    }
    if (problems.empty()) {
      std::vector<std::string> healthy;
      for (const auto& s : signals) {
        if (s.has_data && s.scene != "general") {
          healthy.push_back(Stated(strategies.Find(s.scene), s, out.evidence));
        }
      }
      if (healthy.empty()) {
        out.text = Sentence(absl::StrCat(prefix, "no performance problem signals: the trace holds no "
                                                 "frame, startup, input, ANR, memory or CPU data to judge",
                                         facts_text));
      } else {
        out.text = Sentence(absl::StrCat(prefix, "no performance problem found: ",
                                         absl::StrJoin(healthy, "; "), facts_text));
      }
      return out;
    }
    std::vector<std::string> parts;
    for (const SceneSignalReading* p : problems) {
      parts.push_back(absl::StrCat(Stated(strategies.Find(p->scene), *p, out.evidence),
                                   plan.Has(p->scene) ? cause_of(p->scene) : ""));
    }
    out.text = Sentence(absl::StrCat(prefix, problems.size() == 1 ? "the trace shows one problem: "
                                                                   : absl::StrCat("the trace shows ", problems.size(), " problems: "),
                                     absl::StrJoin(parts, "; ")));
    return out;
  }

  const strategy::Strategy* scene = strategies.Find(plan.primary);
  const SceneSignalReading* own = Signal(signals, plan.primary);
  // Other scenes the diagnosis looked at because they show a problem.
  std::vector<std::string> elsewhere;
  for (const ScenePlan::Entry& e : plan.scenes) {
    if (e.scene == plan.primary) continue;
    const SceneSignalReading* r = Signal(signals, e.scene);
    if (r && r->problem) {
      elsewhere.push_back(absl::StrCat(Stated(strategies.Find(e.scene), *r, out.evidence),
                                       cause_of(e.scene)));
    }
  }
  if (!own || !own->evaluated || !own->has_data) {
    std::string text = scene && !scene->verdict.no_data.empty()
                           ? scene->verdict.no_data
                           : absl::StrCat("the trace has no data for ", plan.primary);
    if (intent.yes_no) text = absl::StrCat("Cannot tell — ", text);
    if (!elsewhere.empty()) {
      absl::StrAppend(&text, "; it does show that ", absl::StrJoin(elsewhere, "; and "));
    }
    out.text = Sentence(text);
    return out;
  }
  const bool asks_healthy = scene && strategy::QuestionReader::AsksHealthy(question, *scene);
  std::string text;
  // A signal measures the scene's loudest symptom only (a power signal sees capped clocks, not
  // wakeups); when the scene's own analysis found a cause the signal does not measure, the
  // answer leads with that finding instead of a healthy verdict the findings contradict.
  const ReportFinding* unsignalled = nullptr;
  if (!own->problem) {
    const ReportFinding* f = MainCause(findings, plan.primary);
    if (f && !f->cause.empty() && f->severity <= FindingSeverity::kMedium) unsignalled = f;
  }
  if (unsignalled) {
    if (intent.yes_no) text = asks_healthy ? "No — " : "Yes — ";
    absl::StrAppend(&text, scene && !scene->title.empty() ? absl::AsciiStrToLower(scene->title) : plan.primary,
                    ": ", unsignalled->title);
    out.evidence.insert(out.evidence.end(), unsignalled->evidence.begin(), unsignalled->evidence.end());
    if (!elsewhere.empty()) absl::StrAppend(&text, "; the trace also shows that ", absl::StrJoin(elsewhere, "; and "));
    out.text = Sentence(text);
    std::sort(out.evidence.begin(), out.evidence.end());
    out.evidence.erase(std::unique(out.evidence.begin(), out.evidence.end()), out.evidence.end());
    return out;
  }
  if (intent.yes_no) text = (asks_healthy == !own->problem) ? "Yes — " : "No — ";
  absl::StrAppend(&text, Stated(scene, *own, out.evidence));
  if (own->problem) absl::StrAppend(&text, cause_of(plan.primary));
  if (!elsewhere.empty()) {
    absl::StrAppend(&text, own->problem ? "; the trace also shows that " : "; but ",
                    absl::StrJoin(elsewhere, "; and "));
  }
  out.text = Sentence(text);
  std::sort(out.evidence.begin(), out.evidence.end());
  out.evidence.erase(std::unique(out.evidence.begin(), out.evidence.end()), out.evidence.end());
  return out;
}

}  // namespace tw::agent
