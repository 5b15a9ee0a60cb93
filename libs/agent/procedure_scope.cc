#include "libs/agent/procedure_scope.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tw::agent {

absl::StatusOr<skills::ExprValue> ProcedureScope::Input(std::string_view name) const {
  auto it = inputs_.find(name);
  if (it == inputs_.end()) {
    return absl::NotFoundError(
        absl::StrCat("procedures have no input '", std::string(name), "'"));
  }
  return it->second;
}

absl::StatusOr<skills::ExprValue> ProcedureScope::Step(std::string_view id) const {
  auto it = outputs_.find(id);
  if (it == outputs_.end()) {
    return absl::NotFoundError(absl::StrCat("no procedure step '", std::string(id), "' ran before"));
  }
  if (!it->second) return skills::ExprValue::Null();
  return skills::ExprValue{skills::ExprValue::Result{it->second}};
}

absl::StatusOr<skills::ExprValue> ProcedureScope::CurrentRow() const {
  if (!row_result_) return absl::NotFoundError("'row' is only defined inside a drill");
  return skills::ExprValue{skills::ExprValue::Row{row_result_, row_index_}};
}

}  // namespace tw::agent
