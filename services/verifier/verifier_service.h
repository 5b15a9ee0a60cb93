#pragma once
// Verifier service: Verify(AnalysisRecord) runs libs/verify's rules.

#include "tracewise/v1/verifier.grpc.pb.h"

namespace tw::services {

class VerifierService final : public tracewise::v1::Verifier::Service {
 public:
  grpc::Status Verify(grpc::ServerContext* context, const tracewise::v1::VerifyRequest* request,
                      tracewise::v1::VerifyResponse* response) override;
};

}  // namespace tw::services
