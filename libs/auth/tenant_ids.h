#pragma once
// Ids of content-addressed objects as a tenant sees them. The trace store names content by its
// SHA-256; handing that out would tell tenant B that tenant A holds the same bytes (the upload
// would come back "already stored", the id would already answer). So each tenant gets its own
// id for the same content — SHA-256 over a domain tag, the tenant and the content hash — and
// owns that id alone. Without a tenant (auth off) the id is the content hash itself, exactly as
// before tenancy.

#include <string>

namespace tw::auth {

std::string TenantObjectId(const std::string& tenant, const std::string& content_sha256);

}  // namespace tw::auth
