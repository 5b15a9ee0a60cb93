#pragma once
// TraceQuery service implementation over a TraceManager.

#include <cstdint>

#include "libs/trace/store/query_backend.h"
#include "libs/trace/store/trace_manager.h"
#include "tracewise/v1/trace_query.grpc.pb.h"

namespace tw::services {

struct TraceQueryServiceOptions {
  int64_t default_max_rows = 10'000'000;
  int32_t default_batch_rows = 2000;
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

 private:
  TraceManager* manager_;
  LocalQueryBackend backend_;
  TraceQueryServiceOptions options_;
};

}  // namespace tw::services
