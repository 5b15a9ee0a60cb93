#pragma once
// What `lookup_sql_schema` needs to know about the trace's SQL surface: tables/views and their
// columns. Local: over a TraceDatabase; remote: trace-query's GetSchema (libs/rpc).

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tw {
class TraceDatabase;
}

namespace tw::agent {

class SchemaProvider {
 public:
  virtual ~SchemaProvider() = default;
  virtual absl::StatusOr<std::vector<std::string>> Tables() = 0;
  // NOT_FOUND for an unknown table.
  virtual absl::StatusOr<std::vector<std::string>> Columns(const std::string& table) = 0;
};

class LocalSchemaProvider : public SchemaProvider {
 public:
  explicit LocalSchemaProvider(TraceDatabase* db) : db_(db) {}
  absl::StatusOr<std::vector<std::string>> Tables() override;
  absl::StatusOr<std::vector<std::string>> Columns(const std::string& table) override;

 private:
  TraceDatabase* db_;
};

}  // namespace tw::agent
