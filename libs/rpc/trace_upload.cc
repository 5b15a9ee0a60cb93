#include "libs/rpc/trace_upload.h"

#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "libs/rpc/status_convert.h"

namespace tw::rpc {

absl::StatusOr<std::string> UploadFileThrough(const std::string& path, const UploadCall& open) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  grpc::ClientContext context;
  tracewise::v1::UploadTraceResponse response;
  auto writer = open(&context, &response);
  tracewise::v1::UploadTraceRequest request;
  request.mutable_metadata()->set_name(std::filesystem::path(path).filename().string());
  request.mutable_metadata()->set_size_bytes(ec ? 0 : static_cast<int64_t>(size));
  bool ok = writer->Write(request);
  std::string buffer(1 << 20, '\0');
  while (ok && in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    if (in.gcount() <= 0) break;
    request.Clear();
    request.set_chunk(buffer.data(), static_cast<size_t>(in.gcount()));
    ok = writer->Write(request);
  }
  writer->WritesDone();
  const grpc::Status status = writer->Finish();
  if (!status.ok()) return FromGrpc(status);
  return response.trace_id();
}

}  // namespace tw::rpc
