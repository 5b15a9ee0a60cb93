// JSON-RPC classification of incoming lines: every malformed shape gets the error JSON-RPC and
// MCP prescribe, with the id echoed only when it is one a client could match.

#include "tools/tracewise/mcp/json_rpc.h"

#include <gtest/gtest.h>

namespace tw::mcp {
namespace {

TEST(JsonRpcTest, RequestsAndNotifications) {
  Message m = ParseMessage(R"({"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"1"}})");
  EXPECT_EQ(m.kind, Message::Kind::kRequest);
  EXPECT_EQ(m.id, 7);
  EXPECT_EQ(m.method, "tools/list");
  EXPECT_EQ(m.params["cursor"], "1");

  m = ParseMessage(R"({"jsonrpc":"2.0","id":"abc","method":"ping"})");
  EXPECT_EQ(m.kind, Message::Kind::kRequest);
  EXPECT_EQ(m.id, "abc");
  EXPECT_TRUE(m.params.is_null());

  m = ParseMessage(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}})");
  EXPECT_EQ(m.kind, Message::Kind::kNotification);

  m = ParseMessage(R"({"jsonrpc":"2.0","id":1,"result":{}})");
  EXPECT_EQ(m.kind, Message::Kind::kResponse);
}

TEST(JsonRpcTest, MalformedMessages) {
  struct Case {
    const char* line;
    int code;
    nlohmann::json id;
  };
  const Case cases[] = {
      {"{not json", kParseError, nullptr},
      {"", kParseError, nullptr},
      {R"({"jsonrpc":"2.0","id":1,"method":"x")", kParseError, nullptr},  // cut short
      {"[1,2]", kInvalidRequest, nullptr},                                 // batch
      {R"("hello")", kInvalidRequest, nullptr},
      {R"({"id":1,"method":"ping"})", kInvalidRequest, 1},                  // no jsonrpc
      {R"({"jsonrpc":"1.0","id":"a","method":"ping"})", kInvalidRequest, "a"},
      {R"({"jsonrpc":"2.0","id":2,"method":5})", kInvalidRequest, 2},
      {R"({"jsonrpc":"2.0","id":null,"method":"ping"})", kInvalidRequest, nullptr},
      {R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})", kInvalidRequest, nullptr},
      {R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})", kInvalidRequest, nullptr},
      {R"({"jsonrpc":"2.0","id":3})", kInvalidRequest, 3},                  // no method
      {R"({"jsonrpc":"2.0","id":4,"method":"ping","params":"x"})", kInvalidRequest, 4},
  };
  for (const Case& c : cases) {
    Message m = ParseMessage(c.line);
    EXPECT_EQ(m.kind, Message::Kind::kInvalid) << c.line;
    EXPECT_EQ(m.error.code, c.code) << c.line;
    EXPECT_EQ(m.id, c.id) << c.line;
    EXPECT_FALSE(m.error.message.empty());
  }
}

TEST(JsonRpcTest, DeepNestingIsRefusedBeforeParsing) {
  std::string deep = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":)";
  deep += std::string(100000, '[') + std::string(100000, ']') + "}}";
  Message m = ParseMessage(deep);
  EXPECT_EQ(m.kind, Message::Kind::kInvalid);
  EXPECT_EQ(m.error.code, kInvalidRequest);
  // Brackets inside strings do not count.
  std::string quoted = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":")" +
                       std::string(1000, '[') + R"("}})";
  EXPECT_EQ(ParseMessage(quoted).kind, Message::Kind::kRequest);
}

TEST(JsonRpcTest, InvalidUtf8IsAParseErrorAndNeverBreaksOutput) {
  EXPECT_EQ(ParseMessage("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xff\"}").error.code, kParseError);
  // Trace strings can hold any bytes: serializing them replaces, never throws.
  const std::string line = Serialize(ResultResponse(1, {{"text", std::string("a\xff\xfe" "b\n")}}));
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_FALSE(nlohmann::json::parse(line, nullptr, false).is_discarded());
}

TEST(JsonRpcTest, Builders) {
  EXPECT_EQ(ErrorResponse(nullptr, {kParseError, "Parse error", nullptr}).dump(),
            R"({"error":{"code":-32700,"message":"Parse error"},"jsonrpc":"2.0"})");
  EXPECT_EQ(ErrorResponse("x", {kMethodNotFound, "Method not found: y", nullptr}).dump(),
            R"({"error":{"code":-32601,"message":"Method not found: y"},"id":"x","jsonrpc":"2.0"})");
  EXPECT_EQ(NotificationMessage("notifications/progress", {{"progress", 1}}).dump(),
            R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}})");
}

}  // namespace
}  // namespace tw::mcp
