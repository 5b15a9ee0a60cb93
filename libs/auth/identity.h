#pragma once
// Who a caller is once authenticated, and what each role may do. Roles nest: a viewer asks
// questions and reads what its tenant holds; an uploader also adds traces; an admin also
// deletes and lists everything in its tenant (everyone else lists what they created).
//
// With authentication off (the embedded CLI, `tracewise serve` on loopback without a config)
// every caller is the anonymous identity: no tenant, admin rights — exactly the behaviour the
// services had before tenancy existed.

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tw::auth {

enum class Role { kViewer = 1, kUploader = 2, kAdmin = 3 };

enum class Permission {
  kRead,        // query, schema, get/resume a session, read a report or a job
  kAsk,         // create a session, ask, cancel a turn, submit a diagnosis job
  kUpload,      // add a trace
  kExport,      // export a report (audited)
  kDelete,      // delete a trace or a session, unload a trace
  kListTenant,  // list every object of the tenant, not only the caller's own
};

const char* RoleName(Role role);
absl::StatusOr<Role> ParseRole(std::string_view name);
const char* PermissionName(Permission permission);
bool RoleAllows(Role role, Permission permission);

struct Identity {
  std::string subject;  // who (a key's subject, a token's `sub`)
  std::string tenant;   // empty only for the anonymous identity
  Role role = Role::kAdmin;
  std::string method;   // "api_key", "jwt", "anonymous"
  std::string key_id;   // the API key's public id, for the audit log

  bool anonymous() const { return method == "anonymous"; }
  bool Allows(Permission permission) const { return RoleAllows(role, permission); }
  // PERMISSION_DENIED naming the role and what it lacks; OK when allowed.
  absl::Status Require(Permission permission) const;
  // Whether an object owned by (tenant, subject) is visible to this caller: same tenant. Objects
  // of another tenant must be reported as NOT_FOUND, never as PERMISSION_DENIED.
  bool SeesTenant(std::string_view object_tenant) const {
    return anonymous() || object_tenant == tenant;
  }
  // Whether a list should show an object: same tenant, and the caller's own unless admin.
  bool ListsObject(std::string_view object_tenant, std::string_view object_owner) const;
};

Identity AnonymousIdentity();

}  // namespace tw::auth
