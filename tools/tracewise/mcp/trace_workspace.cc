#include "tools/tracewise/mcp/trace_workspace.h"

#include <filesystem>

#include "absl/strings/str_cat.h"

namespace tw::mcp {

absl::Status CheckTraceFile(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    return absl::NotFoundError(absl::StrCat("no such file: ", path));
  }
  if (std::filesystem::is_directory(status)) {
    return absl::InvalidArgumentError(absl::StrCat(path, " is a directory, not a trace file"));
  }
  if (!std::filesystem::is_regular_file(status)) {
    return absl::InvalidArgumentError(absl::StrCat(path, " is not a regular file"));
  }
  return absl::OkStatus();
}

absl::StatusOr<ManagedTraceInfo> FindTrace(const std::vector<ManagedTraceInfo>& traces,
                                           const std::string& trace_id) {
  for (const ManagedTraceInfo& info : traces) {
    if (info.id == trace_id) return info;
  }
  return absl::NotFoundError(
      absl::StrCat("unknown trace id \"", trace_id, "\" (load_trace returns ids; list_traces lists them)"));
}

}  // namespace tw::mcp
