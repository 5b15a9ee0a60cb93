#pragma once
// Prompt templates (`templates/*.md`: role, output format, methodology, quick mode, selection
// context, comparison). A template's body may contain `{{name}}` placeholders; rendering fails
// when a placeholder has no value, so a prompt never reaches a model with a raw `{{...}}` in it.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace tw::strategy {

struct PromptTemplate {
  std::string name;         // file name without `.md`
  std::string description;  // from frontmatter, optional
  std::string body;
  std::string source_path;
};

absl::StatusOr<PromptTemplate> ParsePromptTemplate(std::string_view text, const std::string& name,
                                                   const std::string& path);

// Names of the placeholders in `body`, in order of first appearance.
std::vector<std::string> TemplatePlaceholders(std::string_view body);

absl::StatusOr<std::string> RenderTemplate(const PromptTemplate& tmpl,
                                           const std::map<std::string, std::string>& values);

}  // namespace tw::strategy
