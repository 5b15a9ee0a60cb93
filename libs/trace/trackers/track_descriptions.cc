#include "libs/trace/trackers/track_descriptions.h"

namespace tw {
namespace {

struct Entry {
  std::string_view key;
  std::string_view description;
};

// Per-process memory counters (process_stats polling and the rss_stat ftrace event). Values
// are bytes.
constexpr Entry kProcessMemory[] = {
    {"virt", "Virtual address space the process has mapped (VmSize), in bytes."},
    {"rss", "Resident set: physical memory mapped by the process (VmRSS), in bytes."},
    {"rss.anon", "Resident anonymous memory (heap, stacks, private mappings), in bytes."},
    {"rss.file", "Resident file-backed memory (code, mapped files), in bytes."},
    {"rss.shmem", "Resident shared memory (shmem, tmpfs, ashmem), in bytes."},
    {"swap", "Memory of the process swapped out (to zram on Android), in bytes."},
    {"locked", "Memory locked in RAM with mlock (VmLck), in bytes."},
    {"rss.watermark", "Peak resident set since the process started or was reset (VmHWM), in "
                      "bytes."},
    {"dmabuf_rss", "DMA buffers the process holds (graphics and camera buffers), in bytes."},
    {"unreclaimable", "Kernel memory charged to the process that cannot be reclaimed, in "
                      "bytes."},
    {"unknown", "A memory counter of a kind the kernel did not name (unknown rss_stat member)."},
};

}  // namespace

std::optional<std::string_view> TrackDescription(std::string_view type, std::string_view key) {
  if (type != "process_memory") return std::nullopt;
  for (const Entry& e : kProcessMemory) {
    if (e.key == key) return e.description;
  }
  return std::nullopt;
}

}  // namespace tw
