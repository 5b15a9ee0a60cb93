#pragma once
// Background knowledge the agent can look up (`lookup_knowledge`): one Markdown topic per file
// with frontmatter `topic`, `title`, `keywords`. Lookup is by exact topic id first, then by
// keyword overlap with the query, so "binder" and "why is IPC slow" both find the binder topic.

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace tw::strategy {

struct KnowledgeTopic {
  std::string topic;
  std::string title;
  std::vector<std::string> keywords;
  std::string body;
  std::string source_path;
};

absl::StatusOr<KnowledgeTopic> ParseKnowledgeTopic(std::string_view text, const std::string& path);

class KnowledgeBase {
 public:
  KnowledgeBase() = default;
  explicit KnowledgeBase(std::vector<KnowledgeTopic> topics) : topics_(std::move(topics)) {}

  const std::vector<KnowledgeTopic>& topics() const { return topics_; }
  const KnowledgeTopic* Find(std::string_view topic) const;
  // Best matches for a free-text query, best first; at most `limit`.
  std::vector<const KnowledgeTopic*> Search(std::string_view query, size_t limit = 3) const;

 private:
  std::vector<KnowledgeTopic> topics_;
};

}  // namespace tw::strategy
