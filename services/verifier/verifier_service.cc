#include "services/verifier/verifier_service.h"

#include "libs/rpc/status_convert.h"
#include "libs/rpc/verify_convert.h"
#include "libs/verify/verifier.h"

namespace tw::services {

grpc::Status VerifierService::Verify(grpc::ServerContext* context, const tracewise::v1::VerifyRequest* request,
                                     tracewise::v1::VerifyResponse* response) {
  if (auto who = auth_->Check(context, auth::Permission::kAsk); !who.ok()) return rpc::ToGrpc(who.status());
  if (!request->has_record()) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "VerifyRequest needs a record");
  }
  rpc::ToProto(verify::Verify(rpc::FromProto(request->record())), response);
  return grpc::Status::OK;
}

}  // namespace tw::services
