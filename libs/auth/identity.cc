#include "libs/auth/identity.h"

#include "absl/strings/str_cat.h"

namespace tw::auth {

const char* RoleName(Role role) {
  switch (role) {
    case Role::kViewer: return "viewer";
    case Role::kUploader: return "uploader";
    case Role::kAdmin: return "admin";
  }
  return "unknown";
}

absl::StatusOr<Role> ParseRole(std::string_view name) {
  if (name == "viewer") return Role::kViewer;
  if (name == "uploader") return Role::kUploader;
  if (name == "admin") return Role::kAdmin;
  return absl::InvalidArgumentError(absl::StrCat("unknown role '", std::string(name),
                                                 "' (viewer, uploader or admin)"));
}

const char* PermissionName(Permission permission) {
  switch (permission) {
    case Permission::kRead: return "read";
    case Permission::kAsk: return "ask";
    case Permission::kUpload: return "upload";
    case Permission::kExport: return "export";
    case Permission::kDelete: return "delete";
    case Permission::kListTenant: return "list the tenant";
  }
  return "unknown";
}

bool RoleAllows(Role role, Permission permission) {
  switch (permission) {
    case Permission::kRead:
    case Permission::kAsk:
    case Permission::kExport:
      return true;
    case Permission::kUpload:
      return role == Role::kUploader || role == Role::kAdmin;
    case Permission::kDelete:
    case Permission::kListTenant:
      return role == Role::kAdmin;
  }
  return false;
}

absl::Status Identity::Require(Permission permission) const {
  if (Allows(permission)) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrCat("role '", RoleName(role), "' may not ",
                                                  PermissionName(permission)));
}

bool Identity::ListsObject(std::string_view object_tenant, std::string_view object_owner) const {
  if (!SeesTenant(object_tenant)) return false;
  return anonymous() || role == Role::kAdmin || object_owner == subject;
}

Identity AnonymousIdentity() {
  Identity id;
  id.subject = "anonymous";
  id.role = Role::kAdmin;
  id.method = "anonymous";
  return id;
}

}  // namespace tw::auth
