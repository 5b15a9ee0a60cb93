#pragma once
// A Markdown file with optional YAML frontmatter between two `---` lines. Strategies, knowledge
// topics and prompt templates all use this shape: machine-readable header, human-readable body.

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tw::strategy {

struct MarkdownDocument {
  std::string frontmatter;     // YAML text without the `---` fences; empty when absent
  int frontmatter_first_line = 0;  // 1-based line of the first YAML line in the file
  std::string body;            // everything after the closing fence
  int body_first_line = 1;
};

// Splits `text`. A file that opens a frontmatter fence but never closes it is an error: silently
// treating the YAML as body would hide a broken strategy.
absl::StatusOr<MarkdownDocument> SplitFrontmatter(std::string_view text);

}  // namespace tw::strategy
