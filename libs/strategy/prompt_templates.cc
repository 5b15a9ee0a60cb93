#include "libs/strategy/prompt_templates.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "libs/strategy/markdown_document.h"
#include "yaml-cpp/yaml.h"

namespace tw::strategy {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool IsNameChar(char c) { return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Finds the next `{{name}}` at or after `from`; returns npos when none.
size_t NextPlaceholder(std::string_view body, size_t from, std::string_view& name, size_t& end) {
  for (size_t open = body.find("{{", from); open != std::string_view::npos;
       open = body.find("{{", open + 2)) {
    const size_t close = body.find("}}", open + 2);
    if (close == std::string_view::npos) return std::string_view::npos;
    std::string_view candidate = Trim(body.substr(open + 2, close - open - 2));
    if (!candidate.empty() && std::all_of(candidate.begin(), candidate.end(), IsNameChar)) {
      name = candidate;
      end = close + 2;
      return open;
    }
  }
  return std::string_view::npos;
}

}  // namespace

absl::StatusOr<PromptTemplate> ParsePromptTemplate(std::string_view text, const std::string& name,
                                                   const std::string& path) {
  auto doc = SplitFrontmatter(text);
  if (!doc.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", doc.status().message()));
  PromptTemplate tmpl{name, "", std::move(doc->body), path};
  if (!doc->frontmatter.empty()) {
    try {
      const YAML::Node root = YAML::Load(doc->frontmatter);
      for (const auto& entry : root) {
        const std::string key = entry.first.as<std::string>();
        if (key != "description") {
          return absl::InvalidArgumentError(
              absl::StrCat(path, ":", entry.first.Mark().line + doc->frontmatter_first_line,
                           ": unknown key '", key, "' (allowed: description)"));
        }
        tmpl.description = entry.second.as<std::string>();
      }
    } catch (const YAML::Exception& e) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", e.mark.line + doc->frontmatter_first_line, ": ", e.msg));
    }
  }
  if (Trim(tmpl.body).empty()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": template body is empty"));
  }
  return tmpl;
}

std::vector<std::string> TemplatePlaceholders(std::string_view body) {
  std::vector<std::string> names;
  std::string_view name;
  size_t end = 0;
  for (size_t pos = NextPlaceholder(body, 0, name, end); pos != std::string_view::npos;
       pos = NextPlaceholder(body, end, name, end)) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
  }
  return names;
}

absl::StatusOr<std::string> RenderTemplate(const PromptTemplate& tmpl,
                                           const std::map<std::string, std::string>& values) {
  std::string out;
  out.reserve(tmpl.body.size());
  std::string_view body = tmpl.body;
  std::string_view name;
  size_t end = 0;
  size_t copied = 0;
  for (size_t pos = NextPlaceholder(body, 0, name, end); pos != std::string_view::npos;
       pos = NextPlaceholder(body, end, name, end)) {
    auto it = values.find(std::string(name));
    if (it == values.end()) {
      return absl::InvalidArgumentError(absl::StrCat("template '", tmpl.name,
                                                     "' needs a value for '", std::string(name), "'"));
    }
    out.append(body.substr(copied, pos - copied));
    out.append(it->second);
    copied = end;
  }
  out.append(body.substr(copied));
  return out;
}

}  // namespace tw::strategy
