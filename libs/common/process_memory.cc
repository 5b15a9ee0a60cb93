#include "libs/common/process_memory.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

namespace tw {
namespace {

int64_t ReadStatusField(const char* field) {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  int64_t kb = 0;
  const size_t len = std::strlen(field);
  while (std::fgets(line, sizeof(line), f)) {
    if (std::strncmp(line, field, len) == 0 && line[len] == ':') {
      kb = std::strtoll(line + len + 1, nullptr, 10);
      break;
    }
  }
  std::fclose(f);
  return kb * 1024;
}

}  // namespace

int64_t PeakRssBytes() { return ReadStatusField("VmHWM"); }
// statm is a few numbers (status formats dozens of fields): cheap enough to read on every
// admission decision of the trace manager.
int64_t CurrentRssBytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return ReadStatusField("VmRSS");
  long long size = 0, resident = 0;
  const int n = std::fscanf(f, "%lld %lld", &size, &resident);
  std::fclose(f);
  if (n != 2) return ReadStatusField("VmRSS");
  return static_cast<int64_t>(resident) * sysconf(_SC_PAGESIZE);
}

bool ResetPeakRss() {
  FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  const bool ok = std::fputs("5", f) >= 0;
  std::fclose(f);
  return ok;
}

}  // namespace tw
