#pragma once
// How much memory a trace will need, before loading it: the peak while it loads (decoding and
// sorting hold events next to the tables being built) and what stays resident once loaded.
// Predicted from the file's size and kind (format, gzip), with per-kind ratios that start
// from conservative priors and follow what real loads measured; a trace loaded before is
// predicted from its own measurements. The trace manager admits loads by these figures.

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace tw {

struct LoadEstimate {
  int64_t peak_bytes = 0;      // while loading, on top of what the process already holds
  int64_t resident_bytes = 0;  // once loaded
  bool measured = false;       // from this trace's own earlier load, not from the kind's ratio
};

class LoadEstimator {
 public:
  // `kind`: e.g. "perfetto_proto", "json+gzip" (TraceKind in trace_manager.cc).
  LoadEstimate Estimate(const std::string& trace_id, const std::string& kind,
                        int64_t file_bytes) const;
  // A finished load: its measured peak (0 when it could not be measured, e.g. other loads ran
  // at the same time) and resident memory.
  void Observe(const std::string& trace_id, const std::string& kind, int64_t file_bytes,
               int64_t peak_bytes, int64_t resident_bytes);

  // Peak and resident bytes per file byte now used for `kind` (tests, diagnostics).
  double PeakRatio(const std::string& kind) const;
  double ResidentRatio(const std::string& kind) const;

 private:
  struct Ratios {
    double peak = 0;
    double resident = 0;
    int samples = 0;
  };
  Ratios RatiosFor(const std::string& kind) const;

  mutable std::mutex mu_;
  std::map<std::string, Ratios> kinds_;
  std::map<std::string, LoadEstimate> traces_;
};

}  // namespace tw
