#pragma once
// A real HTTP server on loopback that replays scripted responses, one per request, in order,
// and records every request it received. Tests script both wire protocols with it (the
// response bytes are written by hand in each test, exactly as the providers send them), and
// can make it misbehave: error statuses and headers, delays, connections cut mid-stream.

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <httplib.h>

namespace tw::llm::testing {

struct ScriptedResponse {
  int status = 200;
  std::string content_type = "text/event-stream";
  std::vector<std::pair<std::string, std::string>> headers;
  // Written one by one, each flushed as its own HTTP chunk (arbitrary split points).
  std::vector<std::string> chunks;
  int64_t delay_before_response_ms = 0;
  int64_t delay_between_chunks_ms = 0;
  // After the chunks, cut the connection instead of ending the body properly.
  bool drop_connection = false;
};

struct ReceivedRequest {
  std::string path;
  std::map<std::string, std::string> headers;  // lower-cased names
  std::string body;
  int remote_port = 0;  // the client's side of the connection: equal ports = a reused connection
  int64_t received_steady_ns = 0;  // when its headers and body were in (steady clock)
};

class ScriptedLlmServer {
 public:
  ScriptedLlmServer();
  ~ScriptedLlmServer();

  void Enqueue(ScriptedResponse response);
  // Drops the responses not served yet (a test that scripts a conversation step by step).
  void ClearScript();
  std::string BaseUrl() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  std::vector<ReceivedRequest> Requests() const;
  int RequestCount() const;
  // Chunks the server managed to write in total (to see a client stop reading).
  int ChunksWritten() const { return chunks_written_.load(); }

 private:
  void Handle(const httplib::Request& req, httplib::Response& res);
  // Sleeps up to `ms`, returning early when the server shuts down.
  void Nap(int64_t ms) const;

  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  mutable std::mutex mu_;
  std::deque<ScriptedResponse> script_;
  std::vector<ReceivedRequest> received_;
  std::atomic<bool> stopping_{false};
  std::atomic<int> chunks_written_{0};
};

// "data: <json>\n\n" — one SSE event with a single data line.
std::string SseData(const std::string& data);
// "event: <name>\ndata: <json>\n\n"
std::string SseEvent(const std::string& name, const std::string& data);

}  // namespace tw::llm::testing
