#pragma once
// An MCP server over newline-delimited JSON-RPC: the lifecycle of both protocol eras
// (protocol_version.h), tools/list + tools/call over a ToolRegistry, resources/list, /read and
// /templates/list over a ResourceRegistry, progress for requests that carry a progressToken,
// cancellation, and a JSON-RPC error for every malformed or unknown request. Tool calls and
// resource reads run on worker threads; everything else is answered on the reading thread, in
// order. It knows nothing of traces: tracewise_server.h registers the Tracewise tools.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "tools/tracewise/mcp/json_rpc.h"
#include "tools/tracewise/mcp/request_tracker.h"
#include "tools/tracewise/mcp/resource_registry.h"
#include "tools/tracewise/mcp/tool_registry.h"
#include "tools/tracewise/mcp/worker_pool.h"

namespace tw::mcp {

struct ServerIdentity {
  std::string name = "tracewise";
  std::string title = "Tracewise";
  std::string version;
  std::string instructions;  // guidance for the model using the server
};

struct McpServerOptions {
  int worker_threads = 4;         // concurrent tool calls / resource reads; 0 = inline
  size_t page_size = 100;         // entries per tools/list and resources/list page
  int64_t list_ttl_ms = 300'000;  // cache hints (2026-07-28) of lists and server/discover
  int64_t read_ttl_ms = 60'000;   // ... and of resources/read
  size_t max_line_bytes = size_t{16} << 20;  // longer messages are refused
  // Diagnostics (never stdout, which carries only protocol messages). Null = stderr.
  std::function<void(const std::string&)> log;
};

class McpServer {
 public:
  // `send` writes one message to the client; it is called from several threads, one call at a
  // time per message (LineWriter serialises them).
  McpServer(ServerIdentity identity, const ToolRegistry* tools, const ResourceRegistry* resources,
            McpServerOptions options, std::function<void(const Json&)> send);
  // Waits for running calls to finish.
  ~McpServer();

  // One line of input (a message); answers go through `send`.
  void HandleLine(std::string_view line);
  // A line that passed the size limit (its content is gone): answers with an error.
  void HandleOversizedLine();
  // Waits until every call in progress has been answered (or dropped, when cancelled).
  void Drain();
  // Cancels every call in progress (they end without an answer), then drains.
  void CancelAll();

  const McpServerOptions& options() const { return options_; }

 private:
  struct Request;

  void HandleRequest(Message message);
  void HandleNotification(const Message& message);
  void Answer(const Request& request, Json result, bool cacheable, int64_t ttl_ms);
  void Fail(const Json& id, RpcError error);

  void Initialize(const Request& request);
  void Discover(const Request& request);
  void ListTools(const Request& request);
  void CallTool(const Request& request);
  void ListResources(const Request& request);
  void ListResourceTemplates(const Request& request);
  void ReadResource(const Request& request);

  Json Capabilities() const;
  Json ServerInfo() const;
  // The page offset a request's `cursor` names; false (after answering -32602) when invalid.
  bool PageOffset(const Request& request, size_t total, size_t* offset);
  void Log(const std::string& line) const;

  ServerIdentity identity_;
  const ToolRegistry* tools_;
  const ResourceRegistry* resources_;
  McpServerOptions options_;
  std::function<void(const Json&)> send_;
  RequestTracker tracker_;
  std::string legacy_version_;  // negotiated by initialize; empty before (reading thread only)
  std::unique_ptr<WorkerPool> workers_;  // last: destroyed (joined) first
};

// Serves MCP on `in_fd` / `out_fd` until the input ends, then lets the calls in progress finish.
// Returns 0, or 1 when the output went away (the client closed it).
int ServeStdio(ServerIdentity identity, const ToolRegistry* tools, const ResourceRegistry* resources,
               McpServerOptions options, int in_fd, int out_fd);

}  // namespace tw::mcp
