#pragma once
// Verifier service: Verify(AnalysisRecord) runs libs/verify's rules.

#include <memory>

#include "libs/rpc/server_auth.h"
#include "tracewise/v1/verifier.grpc.pb.h"

namespace tw::services {

class VerifierService final : public tracewise::v1::Verifier::Service {
 public:
  // `auth` default: off (every caller anonymous).
  explicit VerifierService(std::shared_ptr<rpc::ServerAuth> auth = std::make_shared<rpc::ServerAuth>())
      : auth_(std::move(auth)) {}
  grpc::Status Verify(grpc::ServerContext* context, const tracewise::v1::VerifyRequest* request,
                      tracewise::v1::VerifyResponse* response) override;

 private:
  std::shared_ptr<rpc::ServerAuth> auth_;
};

}  // namespace tw::services
