#pragma once
// Requests in progress, by JSON-RPC id: what `notifications/cancelled` reaches and what gates
// every message sent about a request. Once a request is cancelled nothing more is sent for it
// (no progress, no response: basic/patterns/cancellation); once it has been answered its
// progress token is dead. Both rules are enforced here under one lock, so a cancellation racing
// with the answer can never let half of either through.

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "tools/tracewise/mcp/json_rpc.h"

namespace tw::mcp {

class RequestTracker {
 public:
  struct InFlight {
    Json id;
    Json progress_token;  // null: the client asked for no progress
    std::atomic<bool> cancelled{false};
    double last_progress = -1;  // guarded by the tracker's lock
    bool answered = false;      // guarded by the tracker's lock
  };

  // `send` writes one message to the client.
  explicit RequestTracker(std::function<void(const Json&)> send) : send_(std::move(send)) {}

  // Registers a request; null when a request with this id is still in progress (ids must be
  // unique among in-flight requests).
  std::shared_ptr<InFlight> Begin(const Json& id, const Json& progress_token);
  // Marks the request cancelled (unknown or finished ids are ignored, as the spec asks);
  // returns whether a request was cancelled.
  bool Cancel(const Json& id);
  // Cancels every request in progress (shutdown).
  void CancelAll();
  // Sends `response` unless the request was cancelled, and forgets the request.
  void Finish(const std::shared_ptr<InFlight>& request, const Json& response);
  // Sends notifications/progress when the request asked for it, is still running, and
  // `progress` is above the last value sent.
  void Progress(const std::shared_ptr<InFlight>& request, double progress, double total,
                const std::string& message);
  size_t in_flight();

 private:
  static std::string Key(const Json& id);

  std::function<void(const Json&)> send_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<InFlight>> requests_;
};

}  // namespace tw::mcp
