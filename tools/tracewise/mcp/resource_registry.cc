#include "tools/tracewise/mcp/resource_registry.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace tw::mcp {
namespace {

// "tracewise://schema/{table}" → "tracewise://schema/"; empty when the template does not end in
// exactly one variable.
std::string TemplatePrefix(const std::string& uri_template) {
  const size_t open = uri_template.find('{');
  if (open == std::string::npos || open == 0 || uri_template.back() != '}' ||
      uri_template.find('{', open + 1) != std::string::npos) {
    return "";
  }
  return uri_template.substr(0, open);
}

Json Contents(const std::string& uri, const std::string& mime_type, std::string text) {
  return Json::array({{{"uri", uri}, {"mimeType", mime_type}, {"text", std::move(text)}}});
}

}  // namespace

absl::Status ResourceRegistry::Add(ResourceDefinition resource) {
  if (resource.uri.empty() || !resource.read) {
    return absl::InvalidArgumentError("a resource needs a URI and a reader");
  }
  if (by_uri_.count(resource.uri)) {
    return absl::InvalidArgumentError(absl::StrCat("resource ", resource.uri, " added twice"));
  }
  by_uri_[resource.uri] = resources_.size();
  resources_.push_back(std::move(resource));
  return absl::OkStatus();
}

absl::Status ResourceRegistry::AddTemplate(ResourceTemplateDefinition resource_template) {
  if (TemplatePrefix(resource_template.uri_template).empty() || !resource_template.read) {
    return absl::InvalidArgumentError(absl::StrCat("bad resource template \"",
                                                   resource_template.uri_template, "\""));
  }
  templates_.push_back(std::move(resource_template));
  return absl::OkStatus();
}

Json ResourceRegistry::ListJson(size_t offset, size_t count) const {
  Json list = Json::array();
  for (size_t i = offset; i < resources_.size() && i < offset + count; ++i) {
    const ResourceDefinition& r = resources_[i];
    list.push_back({{"uri", r.uri},
                    {"name", r.name},
                    {"title", r.title},
                    {"description", r.description},
                    {"mimeType", r.mime_type}});
  }
  return list;
}

Json ResourceRegistry::TemplatesJson(size_t offset, size_t count) const {
  Json list = Json::array();
  for (size_t i = offset; i < templates_.size() && i < offset + count; ++i) {
    const ResourceTemplateDefinition& t = templates_[i];
    list.push_back({{"uriTemplate", t.uri_template},
                    {"name", t.name},
                    {"title", t.title},
                    {"description", t.description},
                    {"mimeType", t.mime_type}});
  }
  return list;
}

absl::StatusOr<Json> ResourceRegistry::Read(const std::string& uri) const {
  if (auto it = by_uri_.find(uri); it != by_uri_.end()) {
    const ResourceDefinition& r = resources_[it->second];
    auto text = r.read();
    if (!text.ok()) return text.status();
    return Contents(uri, r.mime_type, std::move(*text));
  }
  for (const ResourceTemplateDefinition& t : templates_) {
    const std::string prefix = TemplatePrefix(t.uri_template);
    if (!absl::StartsWith(uri, prefix) || uri.size() == prefix.size()) continue;
    auto text = t.read(std::string_view(uri).substr(prefix.size()));
    if (!text.ok()) return text.status();
    return Contents(uri, t.mime_type, std::move(*text));
  }
  return absl::NotFoundError(absl::StrCat("no resource ", uri));
}

}  // namespace tw::mcp
