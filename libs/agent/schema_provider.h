#pragma once
// What `lookup_sql_schema` needs to know about the trace's SQL surface: tables/views and their
// columns. Local: over a TraceDatabase; remote: trace-query's GetSchema (libs/rpc).

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tw {
class QueryBackend;
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

// Over a QueryBackend (a trace-query service, or a trace manager in process): the schema is
// fetched once per provider and kept, since it does not change while a trace is loaded.
class BackendSchemaProvider : public SchemaProvider {
 public:
  BackendSchemaProvider(QueryBackend* backend, std::string trace_id)
      : backend_(backend), trace_id_(std::move(trace_id)) {}
  absl::StatusOr<std::vector<std::string>> Tables() override;
  absl::StatusOr<std::vector<std::string>> Columns(const std::string& table) override;

 private:
  absl::Status Fetch();
  QueryBackend* backend_;
  std::string trace_id_;
  bool fetched_ = false;
  std::vector<std::pair<std::string, std::vector<std::string>>> tables_;  // sorted by name
};

}  // namespace tw::agent
