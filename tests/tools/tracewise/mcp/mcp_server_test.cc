// The protocol core driven line by line with a small tool set: both eras' lifecycles, the
// JSON-RPC error for each kind of bad request, argument and output validation, pagination,
// resources, progress and cancellation.

#include "tools/tracewise/mcp/mcp_server.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "absl/status/status.h"
#include "tools/tracewise/mcp/protocol_version.h"

namespace tw::mcp {
namespace {

const Json kModernMeta = {{kMetaProtocolVersion, kModernVersion},
                          {kMetaClientCapabilities, Json::object()},
                          {kMetaClientInfo, {{"name", "test"}, {"version", "1"}}}};

class McpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(tools_.Add({"echo", "Echo", "Echoes text.",
                            Json::parse(R"({"type":"object","properties":{"text":{"type":"string","minLength":1}},
                                            "required":["text"],"additionalProperties":false})"),
                            Json::parse(R"({"type":"object","properties":{"text":{"type":"string"}},"required":["text"]})"),
                            {},
                            [](const ToolCall& call) {
                              const std::string text = call.arguments["text"];
                              return ToolResult::Structured({{"text", text}}, text);
                            }}).ok());
    ASSERT_TRUE(tools_.Add({"slow", "Slow", "Runs until cancelled.",
                            Json::parse(R"({"type":"object"})"), nullptr, {},
                            [this](const ToolCall& call) {
                              for (int step = 1; !call.is_cancelled(); ++step) {
                                call.Progress(step, 0, "step " + std::to_string(step));
                                {
                                  std::lock_guard<std::mutex> lock(mu_);
                                  slow_steps_ = step;
                                }
                                cv_.notify_all();
                                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                              }
                              slow_stopped_ = true;
                              return ToolResult::Error("cancelled");
                            }}).ok());
    ASSERT_TRUE(tools_.Add({"bad_output", "", "Breaks its own output schema.",
                            Json::parse(R"({"type":"object"})"),
                            Json::parse(R"({"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]})"),
                            {}, [](const ToolCall&) { return ToolResult::Structured({{"n", "x"}}, "x"); }}).ok());
    ASSERT_TRUE(tools_.Add({"throws", "", "Throws.", Json::parse(R"({"type":"object"})"), nullptr, {},
                            [](const ToolCall&) -> ToolResult { throw std::runtime_error("boom"); }}).ok());
    ASSERT_TRUE(resources_.Add({"test://a", "a", "A", "The letter a.", "text/plain",
                                [] { return absl::StatusOr<std::string>("alpha"); }}).ok());
    ASSERT_TRUE(resources_.AddTemplate({"test://item/{id}", "item", "Item", "Items by id.", "text/plain",
                                        [](std::string_view id) -> absl::StatusOr<std::string> {
                                          if (id == "1") return std::string("one");
                                          return absl::NotFoundError("no item " + std::string(id));
                                        }}).ok());
  }

  void Start(int threads, size_t page_size = 100) {
    McpServerOptions options;
    options.worker_threads = threads;
    options.page_size = page_size;
    options.log = [](const std::string&) {};
    server_ = std::make_unique<McpServer>(ServerIdentity{"tracewise", "Tracewise", "9.9", "Use it."},
                                          &tools_, &resources_, options, [this](const Json& m) {
                                            std::lock_guard<std::mutex> lock(mu_);
                                            sent_.push_back(m);
                                          });
  }

  // Sends a request and returns the message answering it (the last one sent with its id).
  Json Call(const Json& id, const std::string& method, Json params = nullptr) {
    Json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
    if (!params.is_null()) request["params"] = std::move(params);
    server_->HandleLine(request.dump());
    server_->Drain();
    return Answer(id);
  }
  Json Answer(const Json& id) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = sent_.rbegin(); it != sent_.rend(); ++it) {
      if (it->contains("id") && (*it)["id"] == id) return *it;
    }
    return nullptr;
  }
  void Initialize() {
    Json r = Call(0, "initialize", {{"protocolVersion", kLatestLegacyVersion},
                                    {"capabilities", Json::object()},
                                    {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
    ASSERT_TRUE(r.contains("result")) << r;
    server_->HandleLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  }
  size_t SentCount() {
    std::lock_guard<std::mutex> lock(mu_);
    return sent_.size();
  }

  ToolRegistry tools_;
  ResourceRegistry resources_;
  std::unique_ptr<McpServer> server_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Json> sent_;
  int slow_steps_ = 0;
  std::atomic<bool> slow_stopped_{false};
};

TEST_F(McpServerTest, LegacyHandshake) {
  Start(0);
  // Before initialize only ping (and the modern discovery) are served.
  EXPECT_EQ(Call(1, "tools/list")["error"]["code"], kInvalidParams);
  EXPECT_EQ(Call(2, "ping")["result"], Json::object());
  Json r = Call(3, "initialize", {{"protocolVersion", "2025-06-18"}, {"capabilities", Json::object()}});
  EXPECT_EQ(r["result"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ(r["result"]["serverInfo"]["name"], "tracewise");
  EXPECT_EQ(r["result"]["serverInfo"]["version"], "9.9");
  EXPECT_EQ(r["result"]["instructions"], "Use it.");
  EXPECT_TRUE(r["result"]["capabilities"].contains("tools"));
  EXPECT_TRUE(r["result"]["capabilities"].contains("resources"));
  EXPECT_FALSE(r["result"].contains("resultType"));  // a legacy result keeps the legacy shape
  EXPECT_EQ(Call(4, "initialize", {{"protocolVersion", "2025-06-18"}})["error"]["code"], kInvalidRequest);
  r = Call(5, "tools/list");
  ASSERT_EQ(r["result"]["tools"].size(), 4u);
  EXPECT_EQ(r["result"]["tools"][0]["name"], "echo");
  EXPECT_TRUE(r["result"]["tools"][0].contains("outputSchema"));
  EXPECT_FALSE(r["result"]["tools"][1].contains("outputSchema"));
  EXPECT_FALSE(r["result"].contains("ttlMs"));
}

TEST_F(McpServerTest, UnknownVersionsNegotiateToTheNewestLegacyOne) {
  Start(0);
  EXPECT_EQ(Call(1, "initialize", {{"protocolVersion", "2099-01-01"}})["result"]["protocolVersion"],
            kLatestLegacyVersion);
  Start(0);
  EXPECT_EQ(Call(1, "initialize", {{"protocolVersion", 3}})["error"]["code"], kInvalidParams);
}

TEST_F(McpServerTest, ModernRequestsCarryTheirOwnVersion) {
  Start(0);
  Json r = Call("d", "server/discover", {{"_meta", kModernMeta}});
  EXPECT_EQ(r["result"]["resultType"], "complete");
  EXPECT_EQ(r["result"]["supportedVersions"], Json(SupportedVersions()));
  EXPECT_EQ(r["result"]["supportedVersions"][0], kModernVersion);
  EXPECT_EQ(r["result"]["_meta"][kMetaServerInfo]["name"], "tracewise");
  EXPECT_EQ(r["result"]["cacheScope"], "public");
  EXPECT_GT(r["result"]["ttlMs"].get<int64_t>(), 0);

  r = Call(1, "tools/list", {{"_meta", kModernMeta}});
  EXPECT_EQ(r["result"]["resultType"], "complete");
  EXPECT_EQ(r["result"]["tools"].size(), 4u);
  EXPECT_TRUE(r["result"].contains("ttlMs"));

  r = Call(2, "tools/call", {{"name", "echo"}, {"arguments", {{"text", "hi"}}}, {"_meta", kModernMeta}});
  EXPECT_EQ(r["result"]["resultType"], "complete");
  EXPECT_EQ(r["result"]["structuredContent"]["text"], "hi");
  EXPECT_EQ(r["result"]["isError"], false);

  Json meta = kModernMeta;
  meta[kMetaProtocolVersion] = "1900-01-01";
  r = Call(3, "tools/list", {{"_meta", meta}});
  EXPECT_EQ(r["error"]["code"], kUnsupportedProtocolVersion);
  EXPECT_EQ(r["error"]["data"]["requested"], "1900-01-01");
  EXPECT_EQ(r["error"]["data"]["supported"][0], kModernVersion);

  meta = kModernMeta;
  meta.erase(kMetaClientCapabilities);
  EXPECT_EQ(Call(4, "tools/list", {{"_meta", meta}})["error"]["code"], kInvalidParams);
  EXPECT_EQ(Call(5, "tools/list", {{"_meta", "x"}})["error"]["code"], kInvalidParams);
  // No handshake and no ping in 2026-07-28.
  EXPECT_EQ(Call(6, "ping", {{"_meta", kModernMeta}})["error"]["code"], kMethodNotFound);
  EXPECT_EQ(Call(7, "initialize", {{"protocolVersion", kLatestLegacyVersion}, {"_meta", kModernMeta}})["error"]["code"],
            kMethodNotFound);
}

TEST_F(McpServerTest, BadRequestsGetJsonRpcErrors) {
  Start(0);
  Initialize();
  EXPECT_EQ(Call(1, "no/such/method")["error"]["code"], kMethodNotFound);
  Json r = Call(2, "tools/call", {{"name", "nope"}});
  EXPECT_EQ(r["error"]["code"], kInvalidParams);
  EXPECT_EQ(r["error"]["message"], "Unknown tool: nope");
  EXPECT_EQ(Call(3, "tools/call", {{"arguments", Json::object()}})["error"]["code"], kInvalidParams);
  EXPECT_EQ(Call(4, "tools/call", {{"name", "echo"}, {"arguments", "text"}})["error"]["code"], kInvalidParams);
  EXPECT_EQ(Call(5, "tools/call", Json::array({1}))["error"]["code"], kInvalidParams);
  EXPECT_EQ(Call(6, "tools/call", {{"name", "echo"}, {"_meta", {{"progressToken", 1.5}}}})["error"]["code"],
            kInvalidParams);
  EXPECT_EQ(Call(7, "resources/read", {{"uri", 7}})["error"]["code"], kInvalidParams);

  const size_t before = SentCount();
  server_->HandleLine("{oops");
  server_->HandleLine(R"({"jsonrpc":"2.0","method":"notifications/whatever"})");
  server_->HandleLine(R"({"jsonrpc":"2.0","id":99,"result":{}})");
  server_->HandleLine("   ");
  server_->HandleOversizedLine();
  std::lock_guard<std::mutex> lock(mu_);
  ASSERT_EQ(sent_.size(), before + 2);  // the parse error and the oversized line; nothing else
  EXPECT_EQ(sent_[before]["error"]["code"], kParseError);
  EXPECT_FALSE(sent_[before].contains("id"));  // unreadable: no id (MCP's schema), not null
  EXPECT_EQ(sent_[before + 1]["error"]["code"], kInvalidRequest);
}

TEST_F(McpServerTest, ToolErrorsAreResultsWithIsError) {
  Start(0);
  Initialize();
  Json r = Call(1, "tools/call", {{"name", "echo"}, {"arguments", {{"text", 5}, {"extra", true}}}});
  EXPECT_EQ(r["result"]["isError"], true);
  EXPECT_EQ(r["result"]["content"][0]["text"],
            "invalid arguments for echo: unknown property \"extra\" (expected: text); text: must be "
            "a string, not an integer");
  r = Call(2, "tools/call", {{"name", "echo"}});  // no arguments at all
  EXPECT_EQ(r["result"]["content"][0]["text"], "invalid arguments for echo: missing required property \"text\"");
  r = Call(3, "tools/call", {{"name", "bad_output"}});
  EXPECT_EQ(r["result"]["isError"], true);
  EXPECT_NE(r["result"]["content"][0]["text"].get<std::string>().find("does not match its outputSchema: n: must be an integer"),
            std::string::npos);
  r = Call(4, "tools/call", {{"name", "throws"}});
  EXPECT_EQ(r["result"]["content"][0]["text"], "internal error in throws: boom");
  EXPECT_FALSE(r["result"].contains("structuredContent"));
}

TEST_F(McpServerTest, ListsArePaged) {
  Start(0, /*page_size=*/3);
  Initialize();
  Json r = Call(1, "tools/list");
  ASSERT_EQ(r["result"]["tools"].size(), 3u);
  ASSERT_EQ(r["result"]["nextCursor"], "3");
  r = Call(2, "tools/list", {{"cursor", "3"}});
  ASSERT_EQ(r["result"]["tools"].size(), 1u);
  EXPECT_EQ(r["result"]["tools"][0]["name"], "throws");
  EXPECT_FALSE(r["result"].contains("nextCursor"));
  EXPECT_EQ(Call(3, "tools/list", {{"cursor", "banana"}})["error"]["code"], kInvalidParams);
  EXPECT_EQ(Call(4, "tools/list", {{"cursor", "99"}})["error"]["code"], kInvalidParams);
}

TEST_F(McpServerTest, Resources) {
  Start(1);
  Initialize();
  Json r = Call(1, "resources/list");
  ASSERT_EQ(r["result"]["resources"].size(), 1u);
  EXPECT_EQ(r["result"]["resources"][0]["uri"], "test://a");
  r = Call(2, "resources/templates/list");
  EXPECT_EQ(r["result"]["resourceTemplates"][0]["uriTemplate"], "test://item/{id}");
  r = Call(3, "resources/read", {{"uri", "test://a"}});
  EXPECT_EQ(r["result"]["contents"][0]["text"], "alpha");
  EXPECT_EQ(r["result"]["contents"][0]["mimeType"], "text/plain");
  EXPECT_EQ(Call(4, "resources/read", {{"uri", "test://item/1"}})["result"]["contents"][0]["text"], "one");
  r = Call(5, "resources/read", {{"uri", "test://item/2"}});
  EXPECT_EQ(r["error"]["code"], kLegacyResourceNotFound);  // legacy era
  EXPECT_EQ(r["error"]["data"]["uri"], "test://item/2");
  r = Call(6, "resources/read", {{"uri", "test://zzz"}, {"_meta", kModernMeta}});
  EXPECT_EQ(r["error"]["code"], kInvalidParams);  // 2026-07-28: -32602
}

TEST_F(McpServerTest, ProgressAndCancellation) {
  Start(2);
  Initialize();
  server_->HandleLine(R"({"jsonrpc":"2.0","id":"slow-1","method":"tools/call",
                          "params":{"name":"slow","_meta":{"progressToken":"tok"}}})");
  {
    std::unique_lock<std::mutex> lock(mu_);
    ASSERT_TRUE(cv_.wait_for(lock, std::chrono::seconds(10), [this] { return slow_steps_ >= 3; }));
  }
  // The same id again while it runs: refused.
  server_->HandleLine(R"({"jsonrpc":"2.0","id":"slow-1","method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}})");
  // Other requests are served meanwhile.
  server_->HandleLine(R"({"jsonrpc":"2.0","id":"p","method":"ping"})");
  server_->HandleLine(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow-1","reason":"test"}})");
  server_->Drain();
  EXPECT_TRUE(slow_stopped_);
  std::lock_guard<std::mutex> lock(mu_);
  double last = 0;
  int progress = 0;
  bool answered = false;
  for (const Json& m : sent_) {
    if (m.value("method", "") == "notifications/progress") {
      EXPECT_EQ(m["params"]["progressToken"], "tok");
      EXPECT_GT(m["params"]["progress"].get<double>(), last);
      last = m["params"]["progress"];
      ++progress;
    }
    if (m.value("id", Json()) == "slow-1" && m.contains("result")) answered = true;
    if (m.value("id", Json()) == "slow-1" && m.contains("error")) {
      EXPECT_EQ(m["error"]["code"], kInvalidRequest);
    }
    if (m.value("id", Json()) == "p") {
      EXPECT_EQ(m["result"], Json::object());
    }
  }
  EXPECT_GE(progress, 3);
  EXPECT_FALSE(answered);  // a cancelled request gets no response
}

TEST_F(McpServerTest, NoProgressWithoutAToken) {
  Start(1);
  Initialize();
  server_->HandleLine(R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"slow"}})");
  {
    std::unique_lock<std::mutex> lock(mu_);
    ASSERT_TRUE(cv_.wait_for(lock, std::chrono::seconds(10), [this] { return slow_steps_ >= 2; }));
  }
  server_->CancelAll();
  std::lock_guard<std::mutex> lock(mu_);
  for (const Json& m : sent_) EXPECT_NE(m.value("method", ""), "notifications/progress");
}

}  // namespace
}  // namespace tw::mcp
