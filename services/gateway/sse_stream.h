#pragma once
// Relays a server-streaming Orchestrator call (Ask or Resume) to the browser as Server-Sent
// Events. Each AnalysisEvent becomes
//
//   id: <seq>
//   event: <kind>
//   data: {"seq":..,"turn":..,"kind":"..","unix_ns":..,"payload":{..}}
//
// so `Last-Event-ID` (the last seq seen) resumes through Orchestrator.Resume. The stream ends
// with `event: end`; a call that fails after events were sent ends with `event: stream_error`
// {error: {code, message}} first. A call that fails before any event is an ordinary HTTP error.
// While no event comes, a `: ping` comment is written every heartbeat; a client that went away
// cancels the call.

#include <memory>
#include <string>

#include "services/gateway/gateway_context.h"

namespace tw::gateway {

struct EventCall {
  std::unique_ptr<grpc::ClientContext> context;
  std::unique_ptr<grpc::ClientReader<pb::AnalysisEvent>> reader;
};

std::string SseFrame(const pb::AnalysisEvent& event);

// Waits for the call's first event (or its end), then answers `res`.
void RelayEventStream(std::shared_ptr<EventCall> call, httplib::Response& res,
                      int64_t heartbeat_ms);

}  // namespace tw::gateway
