#include "libs/trace/query/window_functions.h"

#include <cstdint>
#include <deque>
#include <limits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace tw {
namespace {

// The state of one window (partition), kept behind a pointer in SQLite's aggregate context so
// it can be a C++ object; freed by Final.
template <typename State>
State* StateOf(sqlite3_context* ctx, bool create) {
  auto** slot = static_cast<State**>(
      sqlite3_aggregate_context(ctx, create ? static_cast<int>(sizeof(State*)) : 0));
  if (!slot) return nullptr;
  if (!*slot && create) *slot = new State();
  return *slot;
}

template <typename State>
void FreeState(sqlite3_context* ctx) {
  auto** slot = static_cast<State**>(sqlite3_aggregate_context(ctx, 0));
  if (slot && *slot) {
    delete *slot;
    *slot = nullptr;
  }
}

// ---------------------------------------------------------------------------- LAST_NON_NULL

// Rows enter at the frame's end and leave from its start, in order: numbering them lets the
// state keep only the non-NULL values (a row that leaves is the oldest kept one, or a NULL).
struct LastNonNullState {
  int64_t entered = 0;
  int64_t left = 0;
  std::deque<std::pair<int64_t, sqlite3_value*>> non_null;
  ~LastNonNullState() {
    for (auto& [row, value] : non_null) sqlite3_value_free(value);
  }
};

void LastNonNullStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* s = StateOf<LastNonNullState>(ctx, true);
  if (!s) return sqlite3_result_error_nomem(ctx);
  const int64_t row = s->entered++;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  sqlite3_value* copy = sqlite3_value_dup(argv[0]);
  if (!copy) return sqlite3_result_error_nomem(ctx);
  s->non_null.emplace_back(row, copy);
}

void LastNonNullInverse(sqlite3_context* ctx, int, sqlite3_value**) {
  auto* s = StateOf<LastNonNullState>(ctx, true);
  if (!s) return;
  const int64_t row = s->left++;
  if (!s->non_null.empty() && s->non_null.front().first == row) {
    sqlite3_value_free(s->non_null.front().second);
    s->non_null.pop_front();
  }
}

void LastNonNullValue(sqlite3_context* ctx) {
  auto* s = StateOf<LastNonNullState>(ctx, false);
  if (!s || s->non_null.empty()) return sqlite3_result_null(ctx);
  sqlite3_result_value(ctx, s->non_null.back().second);
}

void LastNonNullFinal(sqlite3_context* ctx) {
  LastNonNullValue(ctx);
  FreeState<LastNonNullState>(ctx);
}

// -------------------------------------------------------------------------- INTERNAL_LAYOUT

struct LayoutState {
  static constexpr int64_t kNeverEnds = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> busy_until;  // per depth: when its last span ends
  int64_t last_ts = std::numeric_limits<int64_t>::min();
  int64_t last_depth = 0;
};

void LayoutStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* s = StateOf<LayoutState>(ctx, true);
  if (!s) return sqlite3_result_error_nomem(ctx);
  const int64_t ts = sqlite3_value_int64(argv[0]);
  const int64_t dur = sqlite3_value_int64(argv[1]);
  if (ts < s->last_ts) {
    return sqlite3_result_error(
        ctx, "INTERNAL_LAYOUT: rows must be ordered by ts (OVER (ORDER BY ts ...))", -1);
  }
  s->last_ts = ts;
  size_t depth = 0;
  while (depth < s->busy_until.size() && s->busy_until[depth] > ts) ++depth;
  const int64_t end = dur < 0 ? LayoutState::kNeverEnds : ts + dur;
  if (depth == s->busy_until.size()) {
    s->busy_until.push_back(end);
  } else {
    s->busy_until[depth] = end;
  }
  s->last_depth = static_cast<int64_t>(depth);
}

void LayoutInverse(sqlite3_context* ctx, int, sqlite3_value**) {
  sqlite3_result_error(ctx,
                       "INTERNAL_LAYOUT: the frame must be ROWS BETWEEN UNBOUNDED PRECEDING AND "
                       "CURRENT ROW",
                       -1);
}

void LayoutValue(sqlite3_context* ctx) {
  auto* s = StateOf<LayoutState>(ctx, false);
  sqlite3_result_int64(ctx, s ? s->last_depth : 0);
}

void LayoutFinal(sqlite3_context* ctx) {
  LayoutValue(ctx);
  FreeState<LayoutState>(ctx);
}

}  // namespace

absl::Status RegisterWindowFunctions(sqlite3* db) {
  struct Def {
    const char* name;
    int args;
    void (*step)(sqlite3_context*, int, sqlite3_value**);
    void (*final)(sqlite3_context*);
    void (*value)(sqlite3_context*);
    void (*inverse)(sqlite3_context*, int, sqlite3_value**);
  };
  static constexpr Def kDefs[] = {
      {"LAST_NON_NULL", 1, LastNonNullStep, LastNonNullFinal, LastNonNullValue,
       LastNonNullInverse},
      {"INTERNAL_LAYOUT", 2, LayoutStep, LayoutFinal, LayoutValue, LayoutInverse},
  };
  for (const Def& d : kDefs) {
    const int rc = sqlite3_create_window_function(db, d.name, d.args,
                                                  SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                                  d.step, d.final, d.value, d.inverse, nullptr);
    if (rc != SQLITE_OK) {
      return absl::InternalError(absl::StrCat("cannot register ", d.name, ": ", sqlite3_errstr(rc)));
    }
  }
  return absl::OkStatus();
}

}  // namespace tw
