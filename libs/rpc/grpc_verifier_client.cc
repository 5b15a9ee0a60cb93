#include "libs/rpc/grpc_verifier_client.h"

#include <grpcpp/grpcpp.h>

#include "libs/rpc/channel_security.h"
#include "libs/rpc/verify_convert.h"
#include "tracewise/v1/verifier.grpc.pb.h"

namespace tw::rpc {

struct GrpcVerifierClient::Stub {
  std::unique_ptr<tracewise::v1::Verifier::Stub> stub;
  std::string authorization;
};

GrpcVerifierClient::GrpcVerifierClient(const std::string& target)
    : GrpcVerifierClient(target, "") {}

GrpcVerifierClient::GrpcVerifierClient(const std::string& target, std::string authorization)
    : stub_(std::make_unique<Stub>(Stub{tracewise::v1::Verifier::NewStub(MakeChannel(target)),
                                        std::move(authorization)})) {}

GrpcVerifierClient::~GrpcVerifierClient() = default;

verify::VerifyResult GrpcVerifierClient::Verify(const verify::AnalysisRecord& record) {
  grpc::ClientContext context;
  Authorize(context, stub_->authorization);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  tracewise::v1::VerifyRequest request;
  ToProto(record, request.mutable_record());
  tracewise::v1::VerifyResponse response;
  const grpc::Status status = stub_->stub->Verify(&context, request, &response);
  if (!status.ok()) {
    verify::VerifyResult failed;
    failed.issues.push_back({verify::IssueSeverity::kError, "verifier_unavailable",
                             "the verifier service failed: " + status.error_message(), ""});
    return failed;
  }
  return FromProto(response);
}

}  // namespace tw::rpc
