#pragma once
// Verify(AnalysisRecord) → issues. Runs every rule; errors first, then warnings, each group in
// rule order, so the correction prompt leads with what blocks the analysis.

#include "libs/verify/analysis_record.h"
#include "libs/verify/verify_issue.h"

namespace tw::verify {

VerifyResult Verify(const AnalysisRecord& record);

// The in-process/remote seam (DESIGN.md §1): the agent calls a VerifierClient; the in-process
// implementation calls Verify, the gRPC one (libs/rpc) calls the verifier service.
class VerifierClient {
 public:
  virtual ~VerifierClient() = default;
  virtual VerifyResult Verify(const AnalysisRecord& record) = 0;
};

class LocalVerifierClient : public VerifierClient {
 public:
  VerifyResult Verify(const AnalysisRecord& record) override { return tw::verify::Verify(record); }
};

}  // namespace tw::verify
