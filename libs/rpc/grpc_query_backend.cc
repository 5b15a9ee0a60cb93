#include "libs/rpc/grpc_query_backend.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <optional>

#include "absl/strings/str_cat.h"
#include "libs/rpc/cancel_poller.h"
#include "libs/rpc/channel_security.h"
#include "libs/rpc/status_convert.h"
#include "libs/rpc/trace_upload.h"
#include "libs/rpc/value_convert.h"
#include "tracewise/v1/trace_query.grpc.pb.h"

namespace tw::rpc {

struct GrpcQueryBackend::Stub {
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<tracewise::v1::TraceQuery::Stub> stub;
  std::string authorization;
};

GrpcQueryBackend::GrpcQueryBackend(const std::string& target)
    : GrpcQueryBackend(MakeChannel(target)) {}

GrpcQueryBackend::GrpcQueryBackend(std::shared_ptr<grpc::Channel> channel)
    : GrpcQueryBackend(channel, "") {}

GrpcQueryBackend::GrpcQueryBackend(std::shared_ptr<grpc::Channel> channel, std::string authorization)
    : stub_(std::make_unique<Stub>(
          Stub{channel, tracewise::v1::TraceQuery::NewStub(channel), std::move(authorization)})) {}

std::unique_ptr<GrpcQueryBackend> GrpcQueryBackend::WithAuthorization(std::string authorization) const {
  return std::make_unique<GrpcQueryBackend>(stub_->channel, std::move(authorization));
}

GrpcQueryBackend::~GrpcQueryBackend() = default;

absl::StatusOr<QueryResult> GrpcQueryBackend::Query(const BackendQuery& query) {
  const auto start = std::chrono::steady_clock::now();
  grpc::ClientContext context;
  Authorize(context, stub_->authorization);
  if (query.timeout != absl::InfiniteDuration()) {
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::nanoseconds(absl::ToInt64Nanoseconds(query.timeout)));
  }
  tracewise::v1::QueryRequest request;
  request.set_trace_id(query.trace_id);
  request.set_sql(query.sql);
  ToProto(query.params, request.mutable_parameters());
  if (query.max_rows >= 0) request.set_max_rows(query.max_rows);
  if (query.timeout != absl::InfiniteDuration()) {
    request.set_timeout_ms(absl::ToInt64Milliseconds(query.timeout));
  }
  if (query.stream) request.set_batch_rows(static_cast<int32_t>(query.stream->batch_rows));

  std::optional<CancelPoller> poller;
  if (query.cancelled) {
    poller.emplace([flag = query.cancelled] { return flag->load(); }, [&context] { context.TryCancel(); });
  }
  auto reader = stub_->stub->Query(&context, request);
  QueryResult result;
  tracewise::v1::QueryResponse response;
  bool columns_seen = false;
  bool consumer_stopped = false;
  while (reader->Read(&response)) {
    if (query.cancelled && query.cancelled->load()) {
      context.TryCancel();
      break;
    }
    if (!columns_seen && response.columns_size() > 0) {
      columns_seen = true;
      for (const auto& c : response.columns()) result.columns.push_back(c.name());
      if (query.stream && query.stream->on_columns && !query.stream->on_columns(result.columns)) {
        consumer_stopped = true;
        context.TryCancel();
        break;
      }
    }
    if (response.rows_size() > 0) {
      std::vector<std::vector<SqlValue>> rows;
      rows.reserve(static_cast<size_t>(response.rows_size()));
      for (const auto& row : response.rows()) rows.push_back(FromProto(row));
      if (query.stream) {
        if (!query.stream->on_rows(std::move(rows))) {
          consumer_stopped = true;
          context.TryCancel();
          break;
        }
      } else {
        for (auto& row : rows) result.rows.push_back(std::move(row));
      }
    }
    if (response.done()) {
      result.truncated = response.truncated();
    }
  }
  const grpc::Status status = reader->Finish();
  if (consumer_stopped) return absl::CancelledError("the result's consumer stopped the query");
  if (query.cancelled && query.cancelled->load()) return absl::CancelledError("query was cancelled");
  if (!status.ok()) return FromGrpc(status);
  result.elapsed_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  return result;
}

absl::StatusOr<std::vector<TableColumns>> GrpcQueryBackend::GetSchema(const std::string& trace_id) {
  grpc::ClientContext context;
  Authorize(context, stub_->authorization);
  tracewise::v1::GetSchemaRequest request;
  request.set_trace_id(trace_id);
  tracewise::v1::GetSchemaResponse response;
  const grpc::Status status = stub_->stub->GetSchema(&context, request, &response);
  if (!status.ok()) return FromGrpc(status);
  std::vector<TableColumns> out;
  for (const auto& t : response.tables()) {
    out.push_back({t.name(), std::vector<std::string>(t.columns().begin(), t.columns().end())});
  }
  return out;
}

absl::StatusOr<std::string> GrpcQueryBackend::UploadFile(const std::string& path) {
  return UploadFileThrough(path, [this](grpc::ClientContext* context,
                                        tracewise::v1::UploadTraceResponse* response) {
    Authorize(*context, stub_->authorization);
    return stub_->stub->UploadTrace(context, response);
  });
}

namespace {

ManagedTraceInfo FromProto(const tracewise::v1::TraceInfo& info) {
  ManagedTraceInfo out;
  out.id = info.trace_id();
  out.name = info.name();
  switch (info.state()) {
    case tracewise::v1::TRACE_STATE_LOADING: out.state = TraceState::kLoading; break;
    case tracewise::v1::TRACE_STATE_LOADED: out.state = TraceState::kLoaded; break;
    case tracewise::v1::TRACE_STATE_FAILED: out.state = TraceState::kFailed; break;
    default: out.state = TraceState::kStored; break;
  }
  out.size_bytes = info.size_bytes();
  out.memory_bytes = info.memory_bytes();
  out.last_used_unix_ns = info.last_used_unix_ns();
  out.format = info.format();
  out.start_ts = info.start_ts();
  out.end_ts = info.end_ts();
  out.load_ns = info.load_ns();
  out.error = info.error();
  return out;
}

}  // namespace

absl::StatusOr<ManagedTraceInfo> GrpcQueryBackend::LoadTrace(const std::string& trace_id) {
  grpc::ClientContext context;
  tracewise::v1::LoadTraceRequest request;
  request.set_trace_id(trace_id);
  tracewise::v1::TraceInfo response;
  const grpc::Status status = stub_->stub->LoadTrace(&context, request, &response);
  if (!status.ok()) return FromGrpc(status);
  return FromProto(response);
}

absl::StatusOr<std::vector<ManagedTraceInfo>> GrpcQueryBackend::ListTraces() {
  grpc::ClientContext context;
  tracewise::v1::ListTracesResponse response;
  const grpc::Status status = stub_->stub->ListTraces(&context, {}, &response);
  if (!status.ok()) return FromGrpc(status);
  std::vector<ManagedTraceInfo> out;
  for (const auto& info : response.traces()) out.push_back(FromProto(info));
  return out;
}

}  // namespace tw::rpc
