#pragma once
// A time range of a trace in trace nanoseconds: the user's selection, which bounds what a turn
// looks at (selection_scope.h).

#include <cstdint>

namespace tw::agent {

struct TimeWindow {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

}  // namespace tw::agent
