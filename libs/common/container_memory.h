#pragma once
// The memory limit of the container (cgroup) this process runs in, so a service sizes its
// memory budget from what Kubernetes will enforce instead of a flag someone must keep in step
// with the pod spec. Reads cgroup v2 (`memory.max` of the process's own cgroup, then the
// mount's root) and v1 (`memory/memory.limit_in_bytes`); "max" or v1's near-2^63 sentinel mean
// no limit.

#include <cstdint>
#include <optional>
#include <string>

namespace tw {

// The limit in bytes, or nullopt when there is none (or no cgroup filesystem). `root` is the
// filesystem root to read under ("/" normally; a prepared directory in tests).
std::optional<int64_t> ContainerMemoryLimitBytes(const std::string& root = "/");

// The memory budget a service should keep to under `limit`: `fraction` of it, leaving room for
// what the budget does not see (allocator slack, thread stacks, gRPC buffers).
int64_t BudgetFromLimit(int64_t limit_bytes, double fraction = 0.75);

}  // namespace tw
