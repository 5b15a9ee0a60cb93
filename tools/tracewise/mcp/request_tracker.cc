#include "tools/tracewise/mcp/request_tracker.h"

namespace tw::mcp {

// "s:abc" and "i:7" keep the string id "7" and the integer id 7 apart.
std::string RequestTracker::Key(const Json& id) {
  if (id.is_string()) return "s:" + id.get<std::string>();
  return "i:" + id.dump();
}

std::shared_ptr<RequestTracker::InFlight> RequestTracker::Begin(const Json& id,
                                                                const Json& progress_token) {
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, inserted] = requests_.emplace(Key(id), nullptr);
  if (!inserted) return nullptr;
  it->second = std::make_shared<InFlight>();
  it->second->id = id;
  it->second->progress_token = progress_token;
  return it->second;
}

bool RequestTracker::Cancel(const Json& id) {
  if (!id.is_string() && !id.is_number_integer()) return false;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = requests_.find(Key(id));
  if (it == requests_.end()) return false;
  it->second->cancelled = true;
  return true;
}

void RequestTracker::CancelAll() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [key, request] : requests_) request->cancelled = true;
}

void RequestTracker::Finish(const std::shared_ptr<InFlight>& request, const Json& response) {
  std::lock_guard<std::mutex> lock(mu_);
  request->answered = true;
  if (auto it = requests_.find(Key(request->id)); it != requests_.end() && it->second == request) {
    requests_.erase(it);
  }
  if (!request->cancelled) send_(response);
}

void RequestTracker::Progress(const std::shared_ptr<InFlight>& request, double progress,
                              double total, const std::string& message) {
  if (request->progress_token.is_null()) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (request->cancelled || request->answered || progress <= request->last_progress) return;
  request->last_progress = progress;
  Json params = {{"progressToken", request->progress_token}, {"progress", progress}};
  if (total > 0) params["total"] = total;
  if (!message.empty()) params["message"] = message;
  send_(NotificationMessage("notifications/progress", std::move(params)));
}

size_t RequestTracker::in_flight() {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_.size();
}

}  // namespace tw::mcp
