#include "libs/strategy/markdown_document.h"

#include "absl/status/status.h"

namespace tw::strategy {
namespace {

// Returns the line starting at `pos` (without its terminator) and advances `pos` past it.
std::string_view NextLine(std::string_view text, size_t& pos) {
  size_t end = text.find('\n', pos);
  if (end == std::string_view::npos) end = text.size();
  std::string_view line = text.substr(pos, end - pos);
  pos = end < text.size() ? end + 1 : end;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool IsFence(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  return line == "---";
}

}  // namespace

absl::StatusOr<MarkdownDocument> SplitFrontmatter(std::string_view text) {
  MarkdownDocument doc;
  // A UTF-8 byte order mark would hide the opening fence.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  size_t pos = 0;
  if (!IsFence(NextLine(text, pos))) {
    doc.body = std::string(text);
    return doc;
  }
  const size_t yaml_begin = pos;
  int line_number = 2;
  while (pos < text.size()) {
    const size_t line_begin = pos;
    if (IsFence(NextLine(text, pos))) {
      doc.frontmatter = std::string(text.substr(yaml_begin, line_begin - yaml_begin));
      doc.frontmatter_first_line = 2;
      doc.body = std::string(text.substr(pos));
      doc.body_first_line = line_number + 1;
      return doc;
    }
    ++line_number;
  }
  return absl::InvalidArgumentError("frontmatter opened with '---' on line 1 is never closed");
}

}  // namespace tw::strategy
