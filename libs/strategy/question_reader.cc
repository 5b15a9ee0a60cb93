#include "libs/strategy/question_reader.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "libs/strategy/markdown_document.h"
#include "re2/re2.h"
#include "yaml-cpp/yaml.h"

namespace tw::strategy {
namespace {

bool IsAsciiWordChar(char c) { return absl::ascii_isalnum(static_cast<unsigned char>(c)); }

std::vector<std::unique_ptr<re2::RE2>> Compile(const std::vector<std::string>& patterns) {
  RE2::Options options;
  options.set_case_sensitive(false);
  options.set_log_errors(false);
  std::vector<std::unique_ptr<re2::RE2>> out;
  for (const std::string& p : patterns) {
    auto re = std::make_unique<RE2>(p, options);
    if (re->ok()) out.push_back(std::move(re));
  }
  return out;
}

bool AnyMatch(const std::vector<std::unique_ptr<re2::RE2>>& res, std::string_view text) {
  for (const auto& re : res) {
    if (RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re)) return true;
  }
  return false;
}

// The first word of the question, lower-cased ASCII letters only ("Is", "does").
std::string FirstWord(std::string_view q) {
  size_t i = 0;
  while (i < q.size() && !absl::ascii_isalpha(static_cast<unsigned char>(q[i]))) {
    // Only skip leading punctuation and spaces; a question opening with CJK has no ASCII start.
    if (static_cast<unsigned char>(q[i]) >= 0x80) return "";
    ++i;
  }
  std::string word;
  while (i < q.size() && absl::ascii_isalpha(static_cast<unsigned char>(q[i]))) {
    word.push_back(absl::ascii_tolower(static_cast<unsigned char>(q[i])));
    ++i;
  }
  return word;
}

}  // namespace

bool ContainsKeyword(const std::string& text, const std::string& keyword) {
  if (keyword.empty()) return false;
  for (size_t pos = text.find(keyword); pos != std::string::npos;
       pos = text.find(keyword, pos + 1)) {
    if (pos == 0 || !IsAsciiWordChar(keyword[0]) || !IsAsciiWordChar(text[pos - 1])) return true;
  }
  return false;
}

absl::StatusOr<QuestionLexicon> ParseQuestionLexicon(std::string_view text, const std::string& path) {
  auto doc = SplitFrontmatter(text);
  if (!doc.ok()) return doc.status();
  QuestionLexicon lexicon;
  try {
    const YAML::Node root = YAML::Load(doc->frontmatter);
    if (!root.IsMap()) return absl::InvalidArgumentError(absl::StrCat(path, ": frontmatter must be a mapping"));
    for (const auto& entry : root) {
      const std::string key = entry.first.as<std::string>();
      std::vector<std::string>* into = key == "yes_no_starts" ? &lexicon.yes_no_starts
                                       : key == "yes_no"      ? &lexicon.yes_no
                                       : key == "over_time"   ? &lexicon.over_time
                                       : key == "general"     ? &lexicon.general
                                                              : nullptr;
      const int line = entry.first.Mark().line + doc->frontmatter_first_line;
      if (!into) {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ":", line, ": unknown key '", key,
            "' (allowed: yes_no_starts, yes_no, over_time, general)"));
      }
      if (!entry.second.IsSequence()) {
        return absl::InvalidArgumentError(absl::StrCat(path, ":", line, ": '", key, "' must be a list"));
      }
      for (const auto& item : entry.second) {
        if (!item.IsScalar()) {
          return absl::InvalidArgumentError(absl::StrCat(path, ":", line, ": '", key, "' holds text"));
        }
        if (key != "yes_no_starts") {
          RE2 re(item.Scalar(), RE2::Quiet);
          if (!re.ok()) {
            return absl::InvalidArgumentError(absl::StrCat(path, ":", item.Mark().line + doc->frontmatter_first_line,
                                                           ": invalid pattern '", item.Scalar(), "': ", re.error()));
          }
        }
        into->push_back(item.Scalar());
      }
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", e.mark.line + doc->frontmatter_first_line, ": ", e.msg));
  }
  return lexicon;
}

QuestionReader::QuestionReader() = default;
QuestionReader::~QuestionReader() = default;
QuestionReader::QuestionReader(QuestionReader&&) noexcept = default;
QuestionReader& QuestionReader::operator=(QuestionReader&&) noexcept = default;

QuestionReader::QuestionReader(const QuestionLexicon& lexicon)
    : yes_no_(Compile(lexicon.yes_no)),
      over_time_(Compile(lexicon.over_time)),
      general_(Compile(lexicon.general)) {
  for (const std::string& w : lexicon.yes_no_starts) starts_.push_back(absl::AsciiStrToLower(w));
}

QuestionIntent QuestionReader::Read(std::string_view question) const {
  QuestionIntent intent;
  const std::string first = FirstWord(question);
  for (const std::string& s : starts_) intent.yes_no |= !first.empty() && first == s;
  intent.yes_no |= AnyMatch(yes_no_, question);
  intent.over_time = AnyMatch(over_time_, question);
  intent.general = AnyMatch(general_, question);
  // An Android package: lower-case dotted identifiers with at least two dots' worth of parts
  // ("com.example.news"); file names such as "trace.pftrace" have one dot and are not taken.
  static const RE2 kPackage(R"(\b([a-z][a-z0-9_]*(?:\.[a-zA-Z][a-zA-Z0-9_]*){2,})\b)");
  std::string package;
  if (RE2::PartialMatch(re2::StringPiece(question.data(), question.size()), kPackage, &package)) {
    intent.package = package;
  }
  return intent;
}

bool QuestionReader::AsksHealthy(std::string_view question, const Strategy& scene) {
  const std::string lowered = absl::AsciiStrToLower(std::string(question));
  for (const std::string& word : scene.verdict.healthy_words) {
    if (ContainsKeyword(lowered, absl::AsciiStrToLower(word))) return true;
  }
  return false;
}

}  // namespace tw::strategy
