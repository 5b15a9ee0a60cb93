#pragma once
// Streams a local file as TraceQuery.UploadTrace messages (metadata, then 1 MiB chunks) into an
// upload call — trace-query's own, or the orchestrator's proxy of it (same messages). Included
// by libs/rpc sources only: it names grpc++ types.

#include <grpcpp/grpcpp.h>

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tracewise/v1/trace_query.grpc.pb.h"

namespace tw::rpc {

using UploadCall = std::function<std::unique_ptr<grpc::ClientWriter<tracewise::v1::UploadTraceRequest>>(
    grpc::ClientContext*, tracewise::v1::UploadTraceResponse*)>;

// Returns the trace id the service gave the upload.
absl::StatusOr<std::string> UploadFileThrough(const std::string& path, const UploadCall& open);

}  // namespace tw::rpc
