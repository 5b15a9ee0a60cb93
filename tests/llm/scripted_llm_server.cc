#include "tests/llm/scripted_llm_server.h"

#include <algorithm>
#include <cctype>
#include <chrono>

namespace tw::llm::testing {

ScriptedLlmServer::ScriptedLlmServer() {
  server_.Post(".*", [this](const httplib::Request& req, httplib::Response& res) {
    Handle(req, res);
  });
  port_ = server_.bind_to_any_port("127.0.0.1");
  thread_ = std::thread([this] { server_.listen_after_bind(); });
  while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

ScriptedLlmServer::~ScriptedLlmServer() {
  stopping_ = true;
  server_.stop();
  if (thread_.joinable()) thread_.join();
}

void ScriptedLlmServer::Enqueue(ScriptedResponse response) {
  std::lock_guard<std::mutex> lock(mu_);
  script_.push_back(std::move(response));
}

void ScriptedLlmServer::ClearScript() {
  std::lock_guard<std::mutex> lock(mu_);
  script_.clear();
}

std::vector<ReceivedRequest> ScriptedLlmServer::Requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return received_;
}

int ScriptedLlmServer::RequestCount() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(received_.size());
}

void ScriptedLlmServer::Nap(int64_t ms) const {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (!stopping_ && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void ScriptedLlmServer::Handle(const httplib::Request& req, httplib::Response& res) {
  ScriptedResponse script;
  {
    std::lock_guard<std::mutex> lock(mu_);
    ReceivedRequest r;
    r.path = req.path;
    r.body = req.body;
    r.remote_port = req.remote_port;
    r.received_steady_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::steady_clock::now().time_since_epoch())
                               .count();
    for (const auto& [name, value] : req.headers) {
      std::string lower = name;
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      r.headers[lower] = value;
    }
    received_.push_back(std::move(r));
    if (script_.empty()) {
      res.status = 500;
      res.set_content(R"({"error":{"message":"no scripted response left","type":"test"}})",
                      "application/json");
      return;
    }
    script = std::move(script_.front());
    script_.pop_front();
  }
  Nap(script.delay_before_response_ms);
  res.status = script.status;
  for (const auto& [name, value] : script.headers) res.set_header(name, value);
  if (!script.drop_connection && script.delay_between_chunks_ms == 0 &&
      script.content_type != "text/event-stream") {
    std::string body;
    for (const std::string& c : script.chunks) body += c;
    res.set_content(body, script.content_type);
    return;
  }
  res.set_chunked_content_provider(
      script.content_type, [this, script](size_t, httplib::DataSink& sink) {
        for (const std::string& chunk : script.chunks) {
          Nap(script.delay_between_chunks_ms);
          if (stopping_ || !sink.is_writable()) return false;
          if (!sink.write(chunk.data(), chunk.size())) return false;
          ++chunks_written_;
        }
        if (script.drop_connection) return false;  // no terminating chunk: the client sees a cut
        sink.done();
        return true;
      });
}

std::string SseData(const std::string& data) { return "data: " + data + "\n\n"; }

std::string SseEvent(const std::string& name, const std::string& data) {
  return "event: " + name + "\ndata: " + data + "\n\n";
}

}  // namespace tw::llm::testing
