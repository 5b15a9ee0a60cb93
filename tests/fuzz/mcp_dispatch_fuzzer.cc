// libFuzzer target for the MCP server's framing and dispatch (tools/tracewise/mcp): the input is
// a byte stream on the server's stdin — split into lines by the LineReader (with a small size
// cap, so oversized lines are exercised), then parsed, classified and dispatched: lifecycle of
// both eras, tools/list and tools/call with argument validation against a schema, resources,
// pagination cursors, progress tokens, cancellation. Every line must get a well-formed answer
// or none: never a crash, a hang, an exception escaping, or an output line that is not JSON.

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "tools/tracewise/mcp/line_transport.h"
#include "tools/tracewise/mcp/mcp_server.h"

namespace {

using tw::mcp::Json;

struct Fixture {
  tw::mcp::ToolRegistry tools;
  tw::mcp::ResourceRegistry resources;

  Fixture() {
    auto ok = [](const absl::Status& s) {
      if (!s.ok()) std::abort();
    };
    ok(tools.Add({"query", "Query", "SQL-shaped arguments.",
                  Json::parse(R"json({"type":"object","properties":{
                    "trace_id":{"type":"string","minLength":1},
                    "sql":{"type":"string","minLength":1,"maxLength":1000},
                    "max_rows":{"type":"integer","minimum":1,"maximum":10000},
                    "mode":{"type":"string","enum":["quick","full","auto"]},
                    "params":{"type":"object","additionalProperties":{"type":["string","number","boolean","null"]}},
                    "list":{"type":"array","items":{"type":"integer"},"maxItems":3}},
                    "required":["trace_id","sql"],"additionalProperties":false})json"),
                  Json::parse(R"json({"type":"object","properties":{"echo":{"type":"object"}},"required":["echo"]})json"),
                  {},
                  [](const tw::mcp::ToolCall& call) {
                    call.Progress(1, 2, "half");
                    call.Progress(2, 2, "done");
                    return tw::mcp::ToolResult::Structured({{"echo", call.arguments}}, call.arguments.dump());
                  }}));
    ok(tools.Add({"fail", "Fail", "Always an error result.", Json::parse(R"json({"type":"object"})json"), nullptr, {},
                  [](const tw::mcp::ToolCall&) { return tw::mcp::ToolResult::Error("no"); }}));
    ok(resources.Add({"tracewise://a", "a", "A", "a", "text/plain",
                      [] { return absl::StatusOr<std::string>("a"); }}));
    ok(resources.AddTemplate({"tracewise://t/{x}", "t", "T", "t", "text/plain",
                              [](std::string_view x) -> absl::StatusOr<std::string> {
                                if (x == "1") return std::string("one");
                                return absl::NotFoundError("no");
                              }}));
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture* fixture = new Fixture();
  // The input as a file descriptor, read the way stdin is.
  const int fd = memfd_create("mcp-input", 0);
  if (fd < 0) return 0;
  if (size > 0 && write(fd, data, size) != static_cast<ssize_t>(size)) {
    close(fd);
    return 0;
  }
  lseek(fd, 0, SEEK_SET);

  tw::mcp::McpServerOptions options;
  options.worker_threads = 0;  // deterministic: calls run inline
  options.page_size = 1;
  options.max_line_bytes = 4096;
  options.log = [](const std::string&) {};
  tw::mcp::McpServer server({"tracewise", "Tracewise", "0", "fuzz"}, &fixture->tools,
                            &fixture->resources, options, [](const Json& message) {
                              const std::string line = tw::mcp::Serialize(message);
                              if (line.find('\n') != std::string::npos) std::abort();
                              if (Json::parse(line, nullptr, false).is_discarded()) std::abort();
                            });
  // Half the inputs start initialized, so tools/call is reached without the fuzzer finding it.
  if (size > 0 && (data[0] & 1)) {
    server.HandleLine(R"json({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}})json");
  }
  tw::mcp::LineReader reader(fd, options.max_line_bytes);
  std::string line;
  for (;;) {
    const auto status = reader.Next(&line);
    if (status == tw::mcp::LineReader::Status::kEof) break;
    if (status == tw::mcp::LineReader::Status::kTooLong) {
      server.HandleOversizedLine();
    } else {
      server.HandleLine(line);
    }
  }
  server.Drain();
  close(fd);
  return 0;
}
