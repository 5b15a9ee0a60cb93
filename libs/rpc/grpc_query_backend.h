#pragma once
// QueryBackend over a trace-query service: the same contract as LocalQueryBackend, with the
// service's status codes passed through. Streams rows to the caller's RowStream as they arrive;
// a `cancelled` flag or the caller's RowStream returning false cancels the call.

#include <memory>
#include <string>
#include <vector>

#include "libs/trace/store/query_backend.h"
#include "libs/trace/store/trace_manager.h"

namespace grpc {
class Channel;
}

namespace tw::rpc {

class GrpcQueryBackend : public QueryBackend {
 public:
  // `target` is HOST:PORT, reached through MakeChannel (TLS when this process is configured for
  // it). Calls carry `authorization` ("Bearer X") when given, else the thread's caller or the
  // process's own token (CurrentAuthorization, channel_security.h).
  explicit GrpcQueryBackend(const std::string& target);
  explicit GrpcQueryBackend(std::shared_ptr<grpc::Channel> channel);
  GrpcQueryBackend(std::shared_ptr<grpc::Channel> channel, std::string authorization);
  ~GrpcQueryBackend() override;

  // Another backend on the same channel whose calls carry `authorization`.
  std::unique_ptr<GrpcQueryBackend> WithAuthorization(std::string authorization) const;

  absl::StatusOr<QueryResult> Query(const BackendQuery& query) override;
  absl::StatusOr<std::vector<TableColumns>> GetSchema(const std::string& trace_id) override;

  // Uploads a local file; returns the trace id.
  absl::StatusOr<std::string> UploadFile(const std::string& path);
  // Loads a stored trace into the service's memory (a no-op when loaded): NOT_FOUND for unknown
  // ids, INVALID_ARGUMENT when the file is not a trace the engine reads.
  absl::StatusOr<ManagedTraceInfo> LoadTrace(const std::string& trace_id);
  // Every trace the service holds, loaded or only stored.
  absl::StatusOr<std::vector<ManagedTraceInfo>> ListTraces();

 private:
  struct Stub;
  std::unique_ptr<Stub> stub_;
};

}  // namespace tw::rpc
