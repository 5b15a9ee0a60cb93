#pragma once
// The resources a server offers: fixed URIs (listed by resources/list) and URI templates whose
// instances are read on demand (listed by resources/templates/list). Contents are text; a
// reader's NOT_FOUND becomes the protocol's resource-not-found error.

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/tracewise/mcp/json_rpc.h"

namespace tw::mcp {

struct ResourceDefinition {
  std::string uri;
  std::string name;
  std::string title;
  std::string description;
  std::string mime_type;
  std::function<absl::StatusOr<std::string>()> read;
};

// `uri_template` is an RFC 6570 level-1 template with one variable at its end, e.g.
// "tracewise://schema/{table}"; reads of URIs that start with the part before the variable go
// to `read` with the rest of the URI (NOT_FOUND when there is no such instance).
struct ResourceTemplateDefinition {
  std::string uri_template;
  std::string name;
  std::string title;
  std::string description;
  std::string mime_type;
  std::function<absl::StatusOr<std::string>(std::string_view variable)> read;
};

class ResourceRegistry {
 public:
  // INVALID_ARGUMENT for an empty or duplicate URI, a template without a trailing variable.
  absl::Status Add(ResourceDefinition resource);
  absl::Status AddTemplate(ResourceTemplateDefinition resource_template);

  size_t size() const { return resources_.size(); }
  size_t template_count() const { return templates_.size(); }
  // resources/list and resources/templates/list entries for [offset, offset + count).
  Json ListJson(size_t offset, size_t count) const;
  Json TemplatesJson(size_t offset, size_t count) const;

  // The `contents` of resources/read. NOT_FOUND for a URI nothing serves; other errors are the
  // reader's.
  absl::StatusOr<Json> Read(const std::string& uri) const;

 private:
  std::vector<ResourceDefinition> resources_;
  std::map<std::string, size_t> by_uri_;
  std::vector<ResourceTemplateDefinition> templates_;
};

}  // namespace tw::mcp
