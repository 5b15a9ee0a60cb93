#include "libs/agent/schema_provider.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/trace/query/trace_database.h"
#include "libs/trace/store/query_backend.h"

namespace tw::agent {

absl::StatusOr<std::vector<std::string>> LocalSchemaProvider::Tables() {
  auto r = db_->ListTablesAndViews();
  if (!r.ok()) return r.status();
  std::vector<std::string> out;
  for (const auto& row : r->rows) {
    if (!row.empty() && row[0].type == SqlValue::Type::kString) out.push_back(row[0].string_value);
  }
  std::sort(out.begin(), out.end());
  return out;
}

absl::StatusOr<std::vector<std::string>> LocalSchemaProvider::Columns(const std::string& table) {
  auto tables = Tables();
  if (!tables.ok()) return tables.status();
  // Only names the engine lists reach the SQL text below, so the name cannot inject anything.
  if (std::find(tables->begin(), tables->end(), table) == tables->end()) {
    return absl::NotFoundError(absl::StrCat("no table or view named '", table, "'"));
  }
  auto r = db_->Execute(absl::StrCat("SELECT * FROM \"", table, "\" LIMIT 0"));
  if (!r.ok()) return r.status();
  return r->columns;
}

absl::Status BackendSchemaProvider::Fetch() {
  if (fetched_) return absl::OkStatus();
  auto schema = backend_->GetSchema(trace_id_);
  if (!schema.ok()) return schema.status();
  tables_.clear();
  for (auto& t : *schema) tables_.emplace_back(std::move(t.name), std::move(t.columns));
  std::sort(tables_.begin(), tables_.end());
  fetched_ = true;
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> BackendSchemaProvider::Tables() {
  if (absl::Status s = Fetch(); !s.ok()) return s;
  std::vector<std::string> out;
  out.reserve(tables_.size());
  for (const auto& t : tables_) out.push_back(t.first);
  return out;
}

absl::StatusOr<std::vector<std::string>> BackendSchemaProvider::Columns(const std::string& table) {
  if (absl::Status s = Fetch(); !s.ok()) return s;
  for (const auto& t : tables_) {
    if (t.first == table) return t.second;
  }
  return absl::NotFoundError(absl::StrCat("no table or view named '", table, "'"));
}

}  // namespace tw::agent
