#pragma once
// Names of the /proc/meminfo and /proc/vmstat counters, indexed by the MeminfoCounters and
// VmstatCounters enum values of protos/perfetto/common/sys_stats_counters.proto. The counter
// tracks carry the kernel's own spelling (MemTotal, Active(anon), nr_free_pages, ...).

#include <cstdint>
#include <string_view>

namespace tw {

// nullptr-free lookups: an unknown key returns an empty view.
std::string_view MeminfoCounterName(uint64_t key);
std::string_view VmstatCounterName(uint64_t key);

}  // namespace tw
