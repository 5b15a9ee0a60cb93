#include "services/trace_query/trace_query_service.h"

#include <atomic>
#include <chrono>
#include <set>

#include "absl/strings/str_cat.h"
#include "libs/rpc/cancel_poller.h"
#include "libs/rpc/status_convert.h"
#include "libs/rpc/value_convert.h"
#include "libs/trace/reader/format_detector.h"

namespace tw::services {
namespace {

tracewise::v1::TraceState ToProto(TraceState state) {
  switch (state) {
    case TraceState::kStored: return tracewise::v1::TRACE_STATE_STORED;
    case TraceState::kLoading: return tracewise::v1::TRACE_STATE_LOADING;
    case TraceState::kLoaded: return tracewise::v1::TRACE_STATE_LOADED;
    case TraceState::kFailed: return tracewise::v1::TRACE_STATE_FAILED;
  }
  return tracewise::v1::TRACE_STATE_UNSPECIFIED;
}

void ToProto(const ManagedTraceInfo& info, tracewise::v1::TraceInfo* out) {
  out->set_trace_id(info.id);
  out->set_name(info.name);
  out->set_state(ToProto(info.state));
  out->set_size_bytes(info.size_bytes);
  out->set_memory_bytes(info.memory_bytes);
  out->set_last_used_unix_ns(info.last_used_unix_ns);
  out->set_format(info.format);
  out->set_start_ts(info.start_ts);
  out->set_end_ts(info.end_ts);
  out->set_load_ns(info.load_ns);
  out->set_error(info.error);
}

absl::Status UnknownTrace(const std::string& id) {
  return absl::NotFoundError(absl::StrCat("unknown trace '", id, "'"));
}

}  // namespace

absl::StatusOr<auth::Identity> TraceQueryService::CallerFor(grpc::ServerContext* context,
                                                            auth::Permission permission,
                                                            const std::string& trace_id) {
  auto who = options_.auth->Check(context, permission);
  if (!who.ok() || who->anonymous()) return who;
  auto stored = manager_->store().Find(trace_id);
  if (!stored.ok()) {
    if (stored.status().code() == absl::StatusCode::kInvalidArgument) return stored.status();
    return UnknownTrace(trace_id);
  }
  if (!who->SeesTenant(stored->tenant)) return UnknownTrace(trace_id);
  return who;
}

void TraceQueryService::Audit(const auth::Identity& who, const std::string& action,
                              const std::string& object, const absl::Status& outcome,
                              const std::string& detail) {
  if (options_.audit) {
    options_.audit->Record(who, action, object,
                           outcome.ok() ? "ok" : absl::StatusCodeToString(outcome.code()), detail);
  }
}

grpc::Status TraceQueryService::UploadTrace(grpc::ServerContext* context,
                                            grpc::ServerReader<tracewise::v1::UploadTraceRequest>* reader,
                                            tracewise::v1::UploadTraceResponse* response) {
  auto who = options_.auth->Authenticate(context);
  if (!who.ok()) return rpc::ToGrpc(who.status());
  if (absl::Status allowed = who->Require(auth::Permission::kUpload); !allowed.ok()) {
    Audit(*who, "upload", "trace", allowed);
    return rpc::ToGrpc(allowed);
  }
  tracewise::v1::UploadTraceRequest request;
  if (!reader->Read(&request) || !request.has_metadata()) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "the first message of an upload must carry its metadata");
  }
  const tracewise::v1::UploadMetadata metadata = request.metadata();
  TraceOwner owner;
  if (!who->anonymous()) owner = {who->tenant, who->subject};
  // The tenant's storage quota, against the declared size first and the real size at the end.
  int64_t held = 0;
  if (options_.quotas && !owner.tenant.empty()) {
    held = manager_->store().TenantBytes(owner.tenant);
    if (absl::Status q = options_.quotas->CheckStoredBytes(owner.tenant, held, metadata.size_bytes());
        !q.ok()) {
      Audit(*who, "upload", "trace", q, absl::StrCat("name=", SafeTraceName(metadata.name())));
      return rpc::ToGrpcWithRetry(context, q);
    }
  }
  auto upload = manager_->store().BeginUpload(metadata.name(), metadata.size_bytes(), owner);
  if (!upload.ok()) return rpc::ToGrpc(upload.status());
  std::string head;
  while (reader->Read(&request)) {
    if (!request.has_chunk()) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "metadata sent twice in one upload");
    }
    if (head.size() < kTraceDetectHeadBytes) {
      head.append(request.chunk().substr(0, kTraceDetectHeadBytes - head.size()));
    }
    auto status = (*upload)->Append(request.chunk());
    if (!status.ok()) return rpc::ToGrpc(status);  // the partial upload is discarded
    if (options_.quotas && !owner.tenant.empty()) {
      if (absl::Status q = options_.quotas->CheckStoredBytes(owner.tenant, held, (*upload)->bytes()); !q.ok()) {
        Audit(*who, "upload", "trace", q, absl::StrCat("name=", SafeTraceName(metadata.name())));
        return rpc::ToGrpcWithRetry(context, q);
      }
    }
  }
  if (context->IsCancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "upload cancelled");
  // A product rule, not the engine's: the engine reads 0 bytes as an empty trace (as
  // trace_processor does), but an upload of nothing is almost surely a client mistake, and
  // storing it would only produce an analysis of nothing.
  if (head.empty()) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "the upload is empty: a trace of 0 bytes holds nothing to analyse");
  }
  const TraceFormat format = DetectTraceFormat(head);
  if (format == TraceFormat::kUnknown) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        absl::StrCat("not a trace Tracewise can read: ", DescribeTraceHead(head)));
  }
  auto stored = (*upload)->Finish(metadata.sha256());
  if (!stored.ok()) return rpc::ToGrpc(stored.status());
  Audit(*who, "upload", "trace/" + stored->id, absl::OkStatus(),
        absl::StrCat("name=", stored->name, " bytes=", stored->size_bytes,
                     stored->already_stored ? " already_stored" : ""));
  response->set_trace_id(stored->id);
  response->set_size_bytes(stored->size_bytes);
  response->set_already_stored(stored->already_stored);
  return grpc::Status::OK;
}

grpc::Status TraceQueryService::LoadTrace(grpc::ServerContext* context, const tracewise::v1::LoadTraceRequest* request,
                                          tracewise::v1::TraceInfo* response) {
  if (auto who = CallerFor(context, auth::Permission::kRead, request->trace_id()); !who.ok()) {
    return rpc::ToGrpc(who.status());
  }
  auto info = manager_->Load(request->trace_id());
  if (!info.ok()) return rpc::ToGrpc(info.status());
  ToProto(*info, response);
  return grpc::Status::OK;
}

grpc::Status TraceQueryService::Query(grpc::ServerContext* context, const tracewise::v1::QueryRequest* request,
                                      grpc::ServerWriter<tracewise::v1::QueryResponse>* writer) {
  if (auto who = CallerFor(context, auth::Permission::kRead, request->trace_id()); !who.ok()) {
    return rpc::ToGrpc(who.status());
  }
  // A client's cancellation (or disconnect) reaches the engine even while a query computes for a
  // long time before its first row.
  std::atomic<bool> cancelled{false};
  rpc::CancelPoller poller([context] { return context->IsCancelled(); }, [&] { cancelled = true; });
  BackendQuery query;
  query.trace_id = request->trace_id();
  query.sql = request->sql();
  query.params = rpc::FromProto(request->parameters());
  query.max_rows = request->max_rows() > 0 ? request->max_rows() : options_.default_max_rows;
  query.cancelled = &cancelled;
  // The tighter of the request's timeout and the call's deadline.
  absl::Duration timeout = absl::Milliseconds(options_.default_timeout_ms);
  if (request->timeout_ms() > 0) timeout = std::min(timeout, absl::Milliseconds(request->timeout_ms()));
  const auto deadline = context->deadline();
  if (deadline != std::chrono::system_clock::time_point::max()) {
    timeout = std::min(timeout, absl::FromChrono(deadline - std::chrono::system_clock::now()));
  }
  query.timeout = timeout;

  RowStream stream;
  stream.batch_rows = request->batch_rows() > 0 ? static_cast<size_t>(request->batch_rows())
                                                : static_cast<size_t>(options_.default_batch_rows);
  int64_t total_rows = 0;
  bool columns_sent = false;
  stream.on_columns = [&](const std::vector<std::string>& columns) {
    tracewise::v1::QueryResponse first;
    for (const std::string& name : columns) first.add_columns()->set_name(name);
    columns_sent = true;
    return writer->Write(first);
  };
  // One message reused for every batch: Clear() keeps the row and value objects allocated, so
  // steady-state batches allocate almost nothing.
  tracewise::v1::QueryResponse batch;
  stream.on_rows = [&](std::vector<std::vector<SqlValue>>&& rows) {
    batch.Clear();
    batch.mutable_rows()->Reserve(static_cast<int>(rows.size()));
    for (const auto& row : rows) rpc::ToProto(row, batch.add_rows());
    total_rows += static_cast<int64_t>(rows.size());
    // A failed write means the client has gone: stop the query.
    return writer->Write(batch);
  };
  query.stream = &stream;
  auto result = backend_.Query(query);
  if (!result.ok()) {
    if (cancelled.load() || context->IsCancelled()) {
      return grpc::Status(grpc::StatusCode::CANCELLED, "query cancelled by the client");
    }
    return rpc::ToGrpc(result.status());
  }
  tracewise::v1::QueryResponse last;
  if (!columns_sent) {
    // Statements without a result set (or a last statement that produced none) still answer.
    for (const std::string& name : result->columns) last.add_columns()->set_name(name);
  }
  last.set_done(true);
  last.set_truncated(result->truncated);
  last.set_total_rows(total_rows);
  last.set_elapsed_ns(result->elapsed_ns);
  writer->Write(last);
  return grpc::Status::OK;
}

grpc::Status TraceQueryService::GetSchema(grpc::ServerContext* context, const tracewise::v1::GetSchemaRequest* request,
                                          tracewise::v1::GetSchemaResponse* response) {
  if (auto who = CallerFor(context, auth::Permission::kRead, request->trace_id()); !who.ok()) {
    return rpc::ToGrpc(who.status());
  }
  auto schema = backend_.GetSchema(request->trace_id());
  if (!schema.ok()) return rpc::ToGrpc(schema.status());
  for (const TableColumns& t : *schema) {
    auto* table = response->add_tables();
    table->set_name(t.name);
    for (const std::string& c : t.columns) table->add_columns(c);
  }
  return grpc::Status::OK;
}

grpc::Status TraceQueryService::UnloadTrace(grpc::ServerContext* context, const tracewise::v1::UnloadTraceRequest* request,
                                            tracewise::v1::UnloadTraceResponse*) {
  // Another tenant's trace is NOT_FOUND before the role is even considered.
  auto who = CallerFor(context, auth::Permission::kRead, request->trace_id());
  if (!who.ok()) return rpc::ToGrpc(who.status());
  if (absl::Status allowed = who->Require(auth::Permission::kDelete); !allowed.ok()) {
    return rpc::ToGrpc(allowed);
  }
  return rpc::ToGrpc(manager_->Unload(request->trace_id()));
}

grpc::Status TraceQueryService::DeleteTrace(grpc::ServerContext* context, const tracewise::v1::DeleteTraceRequest* request,
                                            tracewise::v1::DeleteTraceResponse*) {
  auto who = CallerFor(context, auth::Permission::kRead, request->trace_id());
  if (!who.ok()) return rpc::ToGrpc(who.status());
  const std::string object = "trace/" + request->trace_id();
  if (absl::Status allowed = who->Require(auth::Permission::kDelete); !allowed.ok()) {
    Audit(*who, "delete", object, allowed);
    return rpc::ToGrpc(allowed);
  }
  absl::Status unloaded = manager_->Unload(request->trace_id());
  absl::Status deleted = unloaded.ok() ? manager_->store().Delete(request->trace_id()) : unloaded;
  Audit(*who, "delete", object, deleted);
  return rpc::ToGrpc(deleted);
}

grpc::Status TraceQueryService::ListTraces(grpc::ServerContext* context, const tracewise::v1::ListTracesRequest*,
                                           tracewise::v1::ListTracesResponse* response) {
  auto who = options_.auth->Check(context, auth::Permission::kRead);
  if (!who.ok()) return rpc::ToGrpc(who.status());
  // Traces are the tenant's shared data: every role lists the tenant's, nobody another's.
  std::set<std::string> visible;
  if (!who->anonymous()) {
    for (const StoredTrace& t : manager_->store().List()) {
      if (who->SeesTenant(t.tenant)) visible.insert(t.id);
    }
  }
  for (const ManagedTraceInfo& info : manager_->List()) {
    if (who->anonymous() || visible.count(info.id)) ToProto(info, response->add_traces());
  }
  // The process's memory is every tenant's business only through an admin.
  if (who->anonymous() || who->Allows(auth::Permission::kListTenant)) {
    response->set_memory_budget_bytes(manager_->memory_budget_bytes());
    response->set_memory_used_bytes(manager_->memory_used_bytes());
  }
  return grpc::Status::OK;
}

}  // namespace tw::services
