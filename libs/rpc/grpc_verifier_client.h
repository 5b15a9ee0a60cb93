#pragma once
// verify::VerifierClient over the verifier service. A service failure is reported as one
// error-level issue of kind "verifier_unavailable" (the analysis is then not final), never as a
// silent pass.

#include <memory>
#include <string>

#include "libs/verify/verifier.h"

namespace tw::rpc {

class GrpcVerifierClient : public verify::VerifierClient {
 public:
  explicit GrpcVerifierClient(const std::string& target);
  GrpcVerifierClient(const std::string& target, std::string authorization);
  ~GrpcVerifierClient() override;
  verify::VerifyResult Verify(const verify::AnalysisRecord& record) override;

 private:
  struct Stub;
  std::unique_ptr<Stub> stub_;
};

}  // namespace tw::rpc
