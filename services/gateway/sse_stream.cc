#include "services/gateway/sse_stream.h"

#include <condition_variable>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "services/gateway/http_errors.h"

namespace tw::gateway {
namespace {

bool IsKindName(const std::string& kind) {
  if (kind.empty() || kind.size() > 64) return false;
  for (char c : kind) {
    if (!((c >= 'a' && c <= 'z') || c == '_' || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

// The payload goes into one `data:` line: it must be one JSON value without raw line breaks.
// The orchestrator writes compact JSON, so this is the cheap common case; anything else is
// re-serialized (or wrapped as a string when it is not JSON at all).
std::string PayloadText(const std::string& payload) {
  if (payload.empty()) return "{}";
  if (payload.find_first_of("\r\n") == std::string::npos &&
      (payload[0] == '{' || payload[0] == '[')) {
    return payload;
  }
  auto json = nlohmann::json::parse(payload, nullptr, false);
  if (json.is_discarded()) json = nlohmann::json{{"text", payload}};
  return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string SseFrame(const pb::AnalysisEvent& e) {
  const std::string kind = IsKindName(e.kind()) ? e.kind() : "unknown";
  return absl::StrCat("id: ", e.seq(), "\nevent: ", kind, "\ndata: {\"seq\":", e.seq(),
                      ",\"turn\":", e.turn(), ",\"kind\":\"", kind, "\",\"unix_ns\":", e.unix_ns(),
                      ",\"payload\":", PayloadText(e.payload_json()), "}\n\n");
}

void RelayEventStream(std::shared_ptr<EventCall> call, httplib::Response& res,
                      int64_t heartbeat_ms) {
  auto first = std::make_shared<pb::AnalysisEvent>();
  const bool has_first = call->reader->Read(first.get());
  if (!has_first) {
    const grpc::Status status = call->reader->Finish();
    if (!status.ok()) {
      // A turn quota's refusal keeps the orchestrator's retry-after (429 + Retry-After).
      SendError(res, WithRetryAfter(*call->context, FromGrpc(status)));
      return;
    }
  }
  res.status = 200;
  res.set_header("Cache-Control", "no-cache");
  res.set_header("X-Accel-Buffering", "no");
  res.set_chunked_content_provider(
      "text/event-stream", [call, first, has_first, heartbeat_ms](size_t, httplib::DataSink& sink) {
        std::mutex mu;
        std::condition_variable cv;
        bool stop = false;
        bool client_gone = false;
        auto write = [&](const std::string& s) {
          std::lock_guard<std::mutex> lock(mu);
          if (client_gone) return false;
          if (!sink.write(s.data(), s.size())) client_gone = true;
          return !client_gone;
        };
        std::thread heartbeat([&] {
          std::unique_lock<std::mutex> lock(mu);
          while (!stop) {
            cv.wait_for(lock, std::chrono::milliseconds(heartbeat_ms));
            if (stop) break;
            if (!sink.write(": ping\n\n", 8)) {
              client_gone = true;
              call->context->TryCancel();
              break;
            }
          }
        });
        grpc::Status status = grpc::Status::OK;
        if (has_first) {
          bool ok = write(SseFrame(*first));
          pb::AnalysisEvent event;
          while (ok && call->reader->Read(&event)) ok = write(SseFrame(event));
          if (!ok) call->context->TryCancel();
          status = call->reader->Finish();
        }
        {
          std::lock_guard<std::mutex> lock(mu);
          stop = true;
        }
        cv.notify_all();
        heartbeat.join();
        if (client_gone) return false;
        if (!status.ok()) {
          const absl::Status s = FromGrpc(status);
          write(absl::StrCat("event: stream_error\ndata: ",
                             ErrorJson(s.code(), std::string(s.message()), HttpStatusFor(s.code())),
                             "\n\n"));
        }
        write("event: end\ndata: {}\n\n");
        sink.done();
        return true;
      });
}

}  // namespace tw::gateway
