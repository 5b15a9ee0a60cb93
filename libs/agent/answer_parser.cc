#include "libs/agent/answer_parser.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace tw::agent {
namespace {

std::string Trim(std::string_view s) {
  return std::string(absl::StripAsciiWhitespace(absl::string_view(s.data(), s.size())));
}

bool ParseSeverity(const std::string& word, FindingSeverity* out) {
  const std::string w = absl::AsciiStrToLower(word);
  if (w == "critical") *out = FindingSeverity::kCritical;
  else if (w == "high") *out = FindingSeverity::kHigh;
  else if (w == "medium") *out = FindingSeverity::kMedium;
  else if (w == "low") *out = FindingSeverity::kLow;
  else if (w == "info") *out = FindingSeverity::kInfo;
  else return false;
  return true;
}

// Removes Markdown emphasis and code marks that models sprinkle around titles and ids.
std::string Plain(std::string s) {
  std::string out;
  for (char c : s) {
    if (c != '*' && c != '`') out.push_back(c);
  }
  return out;
}

std::string ListItem(const std::string& line) {
  std::string t = Trim(line);
  if (t.rfind("- ", 0) == 0 || t.rfind("* ", 0) == 0) return Trim(t.substr(2));
  size_t i = 0;
  while (i < t.size() && absl::ascii_isdigit(static_cast<unsigned char>(t[i]))) ++i;
  if (i > 0 && i + 1 < t.size() && (t[i] == '.' || t[i] == ')')) return Trim(t.substr(i + 1));
  return "";
}

bool ParseFinding(const std::string& item, ReportFinding* f) {
  const std::string text = Plain(item);
  if (text.empty() || text[0] != '[') return false;
  const size_t close = text.find(']');
  if (close == std::string::npos || !ParseSeverity(Trim(text.substr(1, close - 1)), &f->severity)) {
    return false;
  }
  std::string rest = Trim(text.substr(close + 1));
  // "(evidence: a, b)" at the end; models also write "Evidence:" without parentheses.
  const std::string lower = absl::AsciiStrToLower(rest);
  const size_t ev = lower.rfind("evidence");
  if (ev != std::string::npos) {
    size_t colon = rest.find(':', ev);
    if (colon != std::string::npos) {
      std::string ids = rest.substr(colon + 1);
      const size_t paren = ids.find(')');
      if (paren != std::string::npos) ids = ids.substr(0, paren);
      for (absl::string_view id : absl::StrSplit(ids, absl::ByAnyChar(", ;"), absl::SkipEmpty())) {
        std::string clean = Trim(std::string(id));
        while (!clean.empty() && (clean.back() == '.' || clean.back() == ')')) clean.pop_back();
        if (!clean.empty()) f->evidence.push_back(clean);
      }
      size_t cut = ev;
      if (cut > 0 && rest[cut - 1] == '(') --cut;
      rest = Trim(rest.substr(0, cut));
    }
  }
  for (const char* sep : {" — ", " – ", " - ", ": "}) {
    const size_t at = rest.find(sep);
    if (at != std::string::npos) {
      f->title = Trim(rest.substr(0, at));
      f->description = Trim(rest.substr(at + std::string(sep).size()));
      return true;
    }
  }
  f->title = rest;
  return true;
}

}  // namespace

ParsedAnswer ParseAnswer(const std::string& markdown) {
  ParsedAnswer out;
  std::string section;
  std::string preamble;
  for (absl::string_view raw : absl::StrSplit(markdown, '\n')) {
    const std::string line(raw);
    const std::string t = Trim(line);
    if (t.rfind("#", 0) == 0) {
      section = absl::AsciiStrToLower(Trim(t.substr(t.find_first_not_of('#'))));
      continue;
    }
    if (t.empty()) continue;
    const std::string item = ListItem(line);
    if (section.find("summary") != std::string::npos || section.find("conclusion") != std::string::npos) {
      absl::StrAppend(&out.summary, out.summary.empty() ? "" : " ", t);
    } else if (section.find("finding") != std::string::npos) {
      ReportFinding f;
      if (!item.empty() && ParseFinding(item, &f)) {
        f.id = absl::StrCat("F", out.findings.size() + 1);
        f.source = "agent";
        out.findings.push_back(std::move(f));
      }
    } else if (section.find("causal") != std::string::npos || section.find("chain") != std::string::npos) {
      if (!item.empty()) out.causal_chain.push_back({item, {}});
    } else if (section.find("recommend") != std::string::npos) {
      if (!item.empty()) out.recommendations.push_back(item);
    } else if (section.find("limit") != std::string::npos) {
      out.limits.push_back(item.empty() ? t : item);
    } else if (section.empty()) {
      absl::StrAppend(&preamble, preamble.empty() ? "" : " ", t);
    }
  }
  if (out.summary.empty()) out.summary = preamble;
  return out;
}

}  // namespace tw::agent
