#include "tools/tracewise/mcp/mcp_server.h"

#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tools/tracewise/mcp/line_transport.h"
#include "tools/tracewise/mcp/protocol_version.h"

namespace tw::mcp {

// One request as the handlers see it: its id, params (an object) and era.
struct McpServer::Request {
  Json id;
  std::string method;
  Json params;
  bool modern = false;  // served under 2026-07-28 (per-request `_meta`)
};

McpServer::McpServer(ServerIdentity identity, const ToolRegistry* tools,
                     const ResourceRegistry* resources, McpServerOptions options,
                     std::function<void(const Json&)> send)
    : identity_(std::move(identity)),
      tools_(tools),
      resources_(resources),
      options_(std::move(options)),
      send_(std::move(send)),
      tracker_(send_),
      workers_(std::make_unique<WorkerPool>(options_.worker_threads)) {}

McpServer::~McpServer() { Drain(); }

void McpServer::Drain() { workers_->Drain(); }

void McpServer::CancelAll() {
  tracker_.CancelAll();
  Drain();
}

void McpServer::Log(const std::string& line) const {
  if (options_.log) {
    options_.log(line);
  } else {
    std::fprintf(stderr, "tracewise mcp: %s\n", line.c_str());
  }
}

void McpServer::Fail(const Json& id, RpcError error) { send_(ErrorResponse(id, error)); }

void McpServer::HandleOversizedLine() {
  Fail(nullptr, {kInvalidRequest,
                 absl::StrCat("message longer than ", options_.max_line_bytes, " bytes; ignored"),
                 nullptr});
}

void McpServer::HandleLine(std::string_view line) {
  if (line.find_first_not_of(" \t\r\n") == std::string_view::npos) return;  // blank: nothing
  Message message = ParseMessage(line);
  switch (message.kind) {
    case Message::Kind::kInvalid:
      Log(absl::StrCat("bad message: ", message.error.message));
      Fail(message.id, message.error);
      return;
    case Message::Kind::kResponse:
      // This server sends no requests, so there is nothing a response could answer.
      Log("ignoring a response from the client (this server sends no requests)");
      return;
    case Message::Kind::kNotification:
      HandleNotification(message);
      return;
    case Message::Kind::kRequest:
      HandleRequest(std::move(message));
      return;
  }
}

void McpServer::HandleNotification(const Message& message) {
  // notifications/initialized needs no action: requests are served once initialize is answered.
  if (message.method == "notifications/cancelled") {
    // Malformed or unknown cancellations are ignored (basic/patterns/cancellation).
    if (!message.params.is_object()) return;
    const Json id = message.params.value("requestId", Json());
    const std::string reason = message.params.value("reason", Json("")).is_string()
                                   ? message.params.value("reason", std::string())
                                   : std::string();
    if (tracker_.Cancel(id)) {
      Log(absl::StrCat("request ", id.dump(), " cancelled", reason.empty() ? "" : ": " + reason));
    }
  }
  // Other notifications (progress, roots changes, ...) need nothing from this server.
}

void McpServer::HandleRequest(Message message) {
  if (message.params.is_array()) {
    Fail(message.id, {kInvalidParams, "params must be an object, not an array", nullptr});
    return;
  }
  Request request;
  request.id = message.id;
  request.method = std::move(message.method);
  request.params = message.params.is_null() ? Json::object() : std::move(message.params);

  // Which era serves it: per-request `_meta` (2026-07-28) or the legacy handshake.
  const Json& params = request.params;
  if (auto meta = params.find("_meta"); meta != params.end()) {
    if (!meta->is_object()) {
      Fail(request.id, {kInvalidParams, "_meta must be an object", nullptr});
      return;
    }
    if (auto version = meta->find(kMetaProtocolVersion); version != meta->end()) {
      if (!version->is_string()) {
        Fail(request.id, {kInvalidParams, absl::StrCat("_meta[\"", kMetaProtocolVersion, "\"] must be a string"), nullptr});
        return;
      }
      const std::string requested = version->get<std::string>();
      if (!IsModernVersion(requested)) {
        Fail(request.id, {kUnsupportedProtocolVersion, "Unsupported protocol version",
                          {{"supported", SupportedVersions()}, {"requested", requested}}});
        return;
      }
      auto caps = meta->find(kMetaClientCapabilities);
      if (caps == meta->end() || !caps->is_object()) {
        Fail(request.id, {kInvalidParams,
                          absl::StrCat("_meta[\"", kMetaClientCapabilities,
                                       "\"] (an object) is required with protocol version ", requested),
                          nullptr});
        return;
      }
      request.modern = true;
    }
  }
  const std::string& method = request.method;
  if (!request.modern && method != "initialize" && method != "ping" && method != "server/discover" &&
      legacy_version_.empty()) {
    Fail(request.id,
         {kInvalidParams,
          absl::StrCat("no protocol version for ", method, ": send initialize first (MCP ",
                       kLatestLegacyVersion, " and earlier) or give _meta[\"", kMetaProtocolVersion,
                       "\"] and _meta[\"", kMetaClientCapabilities, "\"] on every request (MCP ",
                       kModernVersion, ")"),
          nullptr});
    return;
  }

  if (request.modern && (method == "initialize" || method == "ping")) {
    // 2026-07-28 has no handshake and no ping: a request naming that version cannot use them.
    Fail(request.id, {kMethodNotFound,
                      absl::StrCat("Method not found: ", method, " is not part of MCP ", kModernVersion,
                                   " (no handshake; server/discover describes the server)"),
                      nullptr});
    return;
  }
  if (method == "initialize") return Initialize(request);
  if (method == "ping") return Answer(request, Json::object(), false, 0);
  if (method == "server/discover") return Discover(request);
  if (method == "tools/list") return ListTools(request);
  if (method == "tools/call") return CallTool(request);
  if (method == "resources/list") return ListResources(request);
  if (method == "resources/templates/list") return ListResourceTemplates(request);
  if (method == "resources/read") return ReadResource(request);
  Fail(request.id, {kMethodNotFound, absl::StrCat("Method not found: ", method), nullptr});
}

void McpServer::Answer(const Request& request, Json result, bool cacheable, int64_t ttl_ms) {
  if (request.modern) {
    result["resultType"] = "complete";
    result["_meta"][kMetaServerInfo] = {{"name", identity_.name}, {"version", identity_.version}};
    if (cacheable) {
      result["ttlMs"] = ttl_ms;
      result["cacheScope"] = "public";  // nothing here depends on who asks
    }
  }
  send_(ResultResponse(request.id, std::move(result)));
}

Json McpServer::Capabilities() const {
  return {{"tools", {{"listChanged", false}}},
          {"resources", {{"subscribe", false}, {"listChanged", false}}}};
}

Json McpServer::ServerInfo() const {
  return {{"name", identity_.name}, {"title", identity_.title}, {"version", identity_.version}};
}

void McpServer::Initialize(const Request& request) {
  const Json& params = request.params;
  auto version = params.find("protocolVersion");
  if (version == params.end() || !version->is_string()) {
    Fail(request.id, {kInvalidParams, "initialize needs params.protocolVersion (a string)", nullptr});
    return;
  }
  if (!legacy_version_.empty()) {
    Fail(request.id, {kInvalidRequest,
                      absl::StrCat("already initialized (protocol ", legacy_version_, ")"), nullptr});
    return;
  }
  legacy_version_ = NegotiateLegacyVersion(version->get<std::string>());
  std::string client = "an unnamed client";
  if (auto info = params.find("clientInfo"); info != params.end() && info->is_object()) {
    client = info->value("name", Json("?")).is_string() ? info->value("name", std::string("?")) : "?";
  }
  Log(absl::StrCat("initialized by ", client, " with protocol ", legacy_version_));
  Json result = {{"protocolVersion", legacy_version_},
                 {"capabilities", Capabilities()},
                 {"serverInfo", ServerInfo()}};
  if (!identity_.instructions.empty()) result["instructions"] = identity_.instructions;
  Answer(request, std::move(result), false, 0);
}

void McpServer::Discover(const Request& request) {
  Json result = {{"supportedVersions", SupportedVersions()}, {"capabilities", Capabilities()}};
  if (!identity_.instructions.empty()) result["instructions"] = identity_.instructions;
  // server/discover is modern by definition: its result always has the modern shape.
  Request modern = request;
  modern.modern = true;
  Answer(modern, std::move(result), true, options_.list_ttl_ms);
}

bool McpServer::PageOffset(const Request& request, size_t total, size_t* offset) {
  *offset = 0;
  auto cursor = request.params.find("cursor");
  if (cursor == request.params.end() || cursor->is_null()) return true;
  size_t value = 0;
  if (!cursor->is_string() || !absl::SimpleAtoi(cursor->get<std::string>(), &value) ||
      value > total) {
    Fail(request.id, {kInvalidParams, "invalid cursor", {{"cursor", *cursor}}});
    return false;
  }
  *offset = value;
  return true;
}

void McpServer::ListTools(const Request& request) {
  size_t offset = 0;
  if (!PageOffset(request, tools_->size(), &offset)) return;
  Json result = {{"tools", tools_->ListJson(offset, options_.page_size)}};
  if (offset + options_.page_size < tools_->size()) {
    result["nextCursor"] = std::to_string(offset + options_.page_size);
  }
  Answer(request, std::move(result), true, options_.list_ttl_ms);
}

void McpServer::ListResources(const Request& request) {
  size_t offset = 0;
  if (!PageOffset(request, resources_->size(), &offset)) return;
  Json result = {{"resources", resources_->ListJson(offset, options_.page_size)}};
  if (offset + options_.page_size < resources_->size()) {
    result["nextCursor"] = std::to_string(offset + options_.page_size);
  }
  Answer(request, std::move(result), true, options_.list_ttl_ms);
}

void McpServer::ListResourceTemplates(const Request& request) {
  size_t offset = 0;
  if (!PageOffset(request, resources_->template_count(), &offset)) return;
  Json result = {{"resourceTemplates", resources_->TemplatesJson(offset, options_.page_size)}};
  if (offset + options_.page_size < resources_->template_count()) {
    result["nextCursor"] = std::to_string(offset + options_.page_size);
  }
  Answer(request, std::move(result), true, options_.list_ttl_ms);
}

void McpServer::CallTool(const Request& request) {
  const Json& params = request.params;
  auto name = params.find("name");
  if (name == params.end() || !name->is_string()) {
    Fail(request.id, {kInvalidParams, "tools/call needs params.name (a string)", nullptr});
    return;
  }
  const ToolDefinition* tool = tools_->Find(name->get<std::string>());
  if (tool == nullptr) {
    Fail(request.id, {kInvalidParams, absl::StrCat("Unknown tool: ", name->get<std::string>()),
                      {{"tool", *name}}});
    return;
  }
  Json arguments = params.value("arguments", Json());
  if (!arguments.is_null() && !arguments.is_object()) {
    Fail(request.id, {kInvalidParams, "params.arguments must be an object", nullptr});
    return;
  }
  Json token;
  if (auto meta = params.find("_meta"); meta != params.end()) {
    token = meta->value("progressToken", Json());
    if (!token.is_null() && !token.is_string() && !token.is_number_integer()) {
      Fail(request.id, {kInvalidParams, "_meta.progressToken must be a string or an integer", nullptr});
      return;
    }
  }
  auto in_flight = tracker_.Begin(request.id, token);
  if (!in_flight) {
    Fail(request.id, {kInvalidRequest,
                      absl::StrCat("request id ", request.id.dump(), " is already in use by a request in progress"),
                      nullptr});
    return;
  }
  workers_->Submit([this, request, tool, arguments = std::move(arguments), in_flight] {
    Json result;
    if (!in_flight->cancelled) {
      auto progress = [this, &in_flight](double value, double total, const std::string& message) {
        tracker_.Progress(in_flight, value, total, message);
      };
      ToolResult r = ToolRegistry::Call(*tool, arguments, progress, &in_flight->cancelled);
      if (in_flight->cancelled) Log(absl::StrCat(tool->name, " (request ", request.id.dump(), ") stopped: cancelled"));
      result = r.ToJson();
      if (request.modern) {
        result["resultType"] = "complete";
        result["_meta"][kMetaServerInfo] = {{"name", identity_.name}, {"version", identity_.version}};
      }
    }
    tracker_.Finish(in_flight, ResultResponse(request.id, std::move(result)));
  });
}

void McpServer::ReadResource(const Request& request) {
  auto uri = request.params.find("uri");
  if (uri == request.params.end() || !uri->is_string()) {
    Fail(request.id, {kInvalidParams, "resources/read needs params.uri (a string)", nullptr});
    return;
  }
  auto in_flight = tracker_.Begin(request.id, Json());
  if (!in_flight) {
    Fail(request.id, {kInvalidRequest,
                      absl::StrCat("request id ", request.id.dump(), " is already in use by a request in progress"),
                      nullptr});
    return;
  }
  workers_->Submit([this, request, uri = uri->get<std::string>(), in_flight] {
    if (in_flight->cancelled) return tracker_.Finish(in_flight, Json());
    auto contents = resources_->Read(uri);
    if (!contents.ok()) {
      const bool not_found = absl::IsNotFound(contents.status());
      // Resource not found is -32602 since 2026-07-28, -32002 before.
      const int code = !not_found ? kInternalError : request.modern ? kInvalidParams : kLegacyResourceNotFound;
      tracker_.Finish(in_flight, ErrorResponse(request.id, {code, std::string(contents.status().message()),
                                                            {{"uri", uri}}}));
      return;
    }
    Json result = {{"contents", std::move(*contents)}};
    if (request.modern) {
      result["resultType"] = "complete";
      result["_meta"][kMetaServerInfo] = {{"name", identity_.name}, {"version", identity_.version}};
      result["ttlMs"] = options_.read_ttl_ms;
      result["cacheScope"] = "public";
    }
    tracker_.Finish(in_flight, ResultResponse(request.id, std::move(result)));
  });
}

int ServeStdio(ServerIdentity identity, const ToolRegistry* tools, const ResourceRegistry* resources,
               McpServerOptions options, int in_fd, int out_fd) {
  LineWriter writer(out_fd);
  std::atomic<bool> output_gone{false};
  const size_t max_line = options.max_line_bytes;
  McpServer server(std::move(identity), tools, resources, std::move(options), [&](const Json& m) {
    if (!writer.Write(Serialize(m))) output_gone = true;
  });
  LineReader reader(in_fd, max_line);
  std::string line;
  for (;;) {
    const LineReader::Status status = reader.Next(&line);
    if (status == LineReader::Status::kEof || output_gone) break;
    if (status == LineReader::Status::kTooLong) {
      server.HandleOversizedLine();
    } else {
      server.HandleLine(line);
    }
  }
  // Input ended: calls in progress still answer (the client may read after closing stdin);
  // when the client is gone altogether, there is no one to answer, so they stop.
  if (output_gone) {
    server.CancelAll();
  } else {
    server.Drain();
  }
  return output_gone ? 1 : 0;
}

}  // namespace tw::mcp
