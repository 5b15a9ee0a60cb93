#include "libs/strategy/knowledge_base.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "libs/strategy/markdown_document.h"
#include "yaml-cpp/yaml.h"

namespace tw::strategy {

absl::StatusOr<KnowledgeTopic> ParseKnowledgeTopic(std::string_view text,
                                                   const std::string& path) {
  auto doc = SplitFrontmatter(text);
  if (!doc.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", doc.status().message()));
  KnowledgeTopic topic;
  topic.source_path = path;
  topic.body = std::move(doc->body);
  try {
    const YAML::Node root = YAML::Load(doc->frontmatter);
    for (const auto& entry : root) {
      const std::string key = entry.first.as<std::string>();
      if (key == "topic") {
        topic.topic = entry.second.as<std::string>();
      } else if (key == "title") {
        topic.title = entry.second.as<std::string>();
      } else if (key == "keywords") {
        topic.keywords = entry.second.as<std::vector<std::string>>();
      } else {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ":", entry.first.Mark().line + doc->frontmatter_first_line,
            ": unknown key '", key, "' (allowed: topic, title, keywords)"));
      }
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", e.mark.line + doc->frontmatter_first_line, ": ", e.msg));
  }
  if (topic.topic.empty() || topic.title.empty() || topic.body.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": a knowledge topic needs 'topic', 'title' and a body"));
  }
  return topic;
}

const KnowledgeTopic* KnowledgeBase::Find(std::string_view topic) const {
  for (const KnowledgeTopic& t : topics_) {
    if (t.topic == topic) return &t;
  }
  return nullptr;
}

std::vector<const KnowledgeTopic*> KnowledgeBase::Search(std::string_view query,
                                                         size_t limit) const {
  if (const KnowledgeTopic* exact = Find(query)) return {exact};
  const std::string lowered = absl::AsciiStrToLower(std::string(query));
  std::vector<std::pair<int, const KnowledgeTopic*>> scored;
  for (const KnowledgeTopic& t : topics_) {
    int score = 0;
    for (const std::string& keyword : t.keywords) {
      if (lowered.find(absl::AsciiStrToLower(keyword)) != std::string::npos) {
        score += static_cast<int>(keyword.size());  // longer keywords are more specific
      }
    }
    if (lowered.find(t.topic) != std::string::npos) score += 100;
    if (score > 0) scored.emplace_back(score, &t);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<const KnowledgeTopic*> out;
  for (size_t i = 0; i < scored.size() && i < limit; ++i) out.push_back(scored[i].second);
  return out;
}

}  // namespace tw::strategy
