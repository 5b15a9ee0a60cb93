#pragma once
// Early-return helpers for absl::Status / absl::StatusOr, so error paths stay one line.

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define TW_CONCAT_INNER(a, b) a##b
#define TW_CONCAT(a, b) TW_CONCAT_INNER(a, b)

#define RETURN_IF_ERROR(expr)                  \
  do {                                         \
    ::absl::Status tw_status_ = (expr);        \
    if (!tw_status_.ok()) return tw_status_;   \
  } while (0)

#define TW_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                             \
  if (!tmp.ok()) return tmp.status();            \
  lhs = std::move(*tmp)

#define ASSIGN_OR_RETURN(lhs, expr) \
  TW_ASSIGN_OR_RETURN_IMPL(TW_CONCAT(tw_statusor_, __LINE__), lhs, expr)
