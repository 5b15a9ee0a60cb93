#pragma once
// tracewise.v1 messages ↔ the gateway's JSON (services/gateway/README.md). Timestamps inside a
// trace stay int64 nanoseconds; wall-clock times become Unix milliseconds (JavaScript numbers
// are exact only up to 2^53). Only protobuf message headers here, no gRPC.

#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"
#include "tracewise/v1/orchestrator.pb.h"
#include "tracewise/v1/skill_engine.pb.h"
#include "tracewise/v1/trace_query.pb.h"

namespace tw::gateway {

nlohmann::json ValueJson(const tracewise::v1::Value& value);
// JSON scalar → Value: integers stay integers, null stays unset; arrays/objects are refused.
absl::StatusOr<tracewise::v1::Value> ValueFromJson(const nlohmann::json& json);
const char* ColumnTypeName(tracewise::v1::ColumnType type);
nlohmann::json EnvelopeJson(const tracewise::v1::DataEnvelope& envelope);
nlohmann::json FindingJson(const tracewise::v1::Finding& finding);
const char* TraceStateName(tracewise::v1::TraceState state);
nlohmann::json TraceInfoJson(const tracewise::v1::TraceInfo& info);
// `with_reports`: include each turn's report (large); otherwise `has_report` only.
nlohmann::json SessionJson(const tracewise::v1::Session& session, bool with_reports = false);
nlohmann::json SkillSummaryJson(const tracewise::v1::SkillSummary& summary);
nlohmann::json SkillDescriptionJson(const tracewise::v1::SkillDescription& description);

// Reads AskOptions from the request's "options" object: mode, scene, reference_trace_id,
// selection {start_ns, end_ns} | {slice_id}, client_tools [..]. INVALID_ARGUMENT names the
// offending field.
absl::Status AskOptionsFromJson(const nlohmann::json& json, tracewise::v1::AskOptions* out);

// Reads a client tool's answer (POST /api/sessions/{id}/tool-results): `request_id` and exactly
// one outcome — `result` (any JSON value), `image_base64` (+ `mime_type`, default image/png;
// `image_png_base64` is the same) or `error` (a string). INVALID_ARGUMENT names what is wrong.
absl::Status ToolResultFromJson(const nlohmann::json& json,
                                tracewise::v1::SubmitToolResultRequest* out);

}  // namespace tw::gateway
