#pragma once
// verify::AnalysisRecord / VerifyResult <-> tracewise.v1 verifier messages.

#include "libs/verify/analysis_record.h"
#include "libs/verify/verify_issue.h"
#include "tracewise/v1/verifier.pb.h"

namespace tw::rpc {

void ToProto(const verify::AnalysisRecord& record, tracewise::v1::AnalysisRecord* out);
verify::AnalysisRecord FromProto(const tracewise::v1::AnalysisRecord& record);
void ToProto(const verify::VerifyResult& result, tracewise::v1::VerifyResponse* out);
verify::VerifyResult FromProto(const tracewise::v1::VerifyResponse& response);

}  // namespace tw::rpc
