#include "libs/trace/trackers/ftrace_drop_window.h"

#include <algorithm>

namespace tw {

void FtraceDropWindow::Compute() {
  known_ = true;
  if (!buffer_preserved_) {
    if (const std::optional<int64_t> started = storage_->GetMetadataInt("tracing_started_ns")) {
      drop_before_ = *started;
    }
  }
  raw_only_before_ = drop_before_;
  if (const std::optional<int64_t> complete =
          storage_->GetMetadataInt("ftrace_latest_data_start_ns")) {
    raw_only_before_ = std::max(raw_only_before_, *complete);
  }
}

}  // namespace tw
