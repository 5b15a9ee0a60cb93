#pragma once
// TraceQuery service implementation over a TraceManager.

#include <cstdint>
#include <memory>

#include "libs/auth/audit_log.h"
#include "libs/auth/quotas.h"
#include "libs/rpc/server_auth.h"
#include "libs/trace/store/query_backend.h"
#include "libs/trace/store/trace_manager.h"
#include "tracewise/v1/trace_query.grpc.pb.h"

namespace tw::services {

struct TraceQueryServiceOptions {
  int64_t default_max_rows = 10'000'000;
  int32_t default_batch_rows = 2000;
  // Every query has a deadline (DESIGN.md §7): this one when neither the request nor the call
  // sets a tighter one, so a runaway recursive query cannot hold a trace's connection forever.
  int64_t default_timeout_ms = 10 * 60 * 1000;
  // Authentication and tenancy (issue #16); defaults: off, no quotas, no audit log.
  std::shared_ptr<rpc::ServerAuth> auth = std::make_shared<rpc::ServerAuth>();
  std::shared_ptr<auth::TenantQuotas> quotas;
  std::shared_ptr<auth::AuditLog> audit;
};

class TraceQueryService final : public tracewise::v1::TraceQuery::Service {
 public:
  TraceQueryService(TraceManager* manager, TraceQueryServiceOptions options = {})
      : manager_(manager), backend_(manager), options_(options) {}

  grpc::Status UploadTrace(grpc::ServerContext* context,
                           grpc::ServerReader<tracewise::v1::UploadTraceRequest>* reader,
                           tracewise::v1::UploadTraceResponse* response) override;
  grpc::Status LoadTrace(grpc::ServerContext* context, const tracewise::v1::LoadTraceRequest* request,
                         tracewise::v1::TraceInfo* response) override;
  grpc::Status Query(grpc::ServerContext* context, const tracewise::v1::QueryRequest* request,
                     grpc::ServerWriter<tracewise::v1::QueryResponse>* writer) override;
  grpc::Status GetSchema(grpc::ServerContext* context, const tracewise::v1::GetSchemaRequest* request,
                         tracewise::v1::GetSchemaResponse* response) override;
  grpc::Status UnloadTrace(grpc::ServerContext* context,
                           const tracewise::v1::UnloadTraceRequest* request,
                           tracewise::v1::UnloadTraceResponse* response) override;
  grpc::Status ListTraces(grpc::ServerContext* context, const tracewise::v1::ListTracesRequest* request,
                          tracewise::v1::ListTracesResponse* response) override;
  grpc::Status DeleteTrace(grpc::ServerContext* context, const tracewise::v1::DeleteTraceRequest* request,
                           tracewise::v1::DeleteTraceResponse* response) override;

 private:
  // The caller, allowed `permission`, and the trace visible to it: another tenant's trace is
  // NOT_FOUND exactly like an unknown id (same message), never PERMISSION_DENIED.
  absl::StatusOr<auth::Identity> CallerFor(grpc::ServerContext* context, auth::Permission permission,
                                           const std::string& trace_id);
  void Audit(const auth::Identity& who, const std::string& action, const std::string& object,
             const absl::Status& outcome, const std::string& detail = "");

  TraceManager* manager_;
  LocalQueryBackend backend_;
  TraceQueryServiceOptions options_;
};

}  // namespace tw::services
