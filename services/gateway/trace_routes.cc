// POST /api/traces (upload), GET /api/traces, GET /api/traces/{id}, GET /api/traces/{id}/overview.

#include <openssl/evp.h>

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "libs/rpc/channel_security.h"
#include "services/gateway/json_convert.h"
#include "services/gateway/skill_run.h"
#include "services/gateway/sql_page.h"

namespace tw::gateway {
namespace {

constexpr size_t kChunkBytes = 1 << 20;  // one UploadTraceRequest chunk

// SHA-256 of the body as it streams past. With tenancy on, a trace's id is the tenant's own id
// for its content (libs/auth/tenant_ids), not the content hash, so the gateway reports the hash
// it saw itself.
class StreamDigest {
 public:
  StreamDigest() : ctx_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
    if (ctx_ && EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1) ctx_.reset();
  }
  void Update(const char* data, size_t n) {
    if (ctx_) EVP_DigestUpdate(ctx_.get(), data, n);
  }
  std::string Hex() {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!ctx_ || EVP_DigestFinal_ex(ctx_.get(), md, &n) != 1) return "";
    std::string out;
    for (unsigned int i = 0; i < n; ++i) {
      out += "0123456789abcdef"[md[i] >> 4];
      out += "0123456789abcdef"[md[i] & 15];
    }
    return out;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx_;
};

bool IsHexSha256(const std::string& s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
         });
}

// Streams the request body to TraceQuery.UploadTrace in 1 MiB chunks as it arrives: the
// gateway never holds more than a chunk (gRPC's flow control blocks Write while trace-query is
// behind). Over the size limit, or once trace-query has refused the upload, the rest of the
// body is read and dropped so the HTTP connection stays in step, and the refusal is answered.
void Upload(GatewayContext& ctx, const httplib::Request& req, httplib::Response& res,
            const httplib::ContentReader& reader, const Caller& caller) {
  const int64_t limit = ctx.options.max_upload_bytes;
  const int64_t declared = std::max<int64_t>(0, ContentLength(req));
  std::string sha256 = req.get_header_value("X-Content-SHA256");
  if (sha256.empty()) sha256 = req.get_param_value("sha256");
  if (!sha256.empty() && !IsHexSha256(sha256)) {
    reader([](const char*, size_t) { return true; });
    return SendError(res, absl::InvalidArgumentError("the sha256 checksum must be 64 hex digits"));
  }
  std::string name = req.get_param_value("name");
  if (name.empty()) name = req.get_header_value("X-Trace-Name");
  if (name.empty()) name = "upload.trace";
  if (declared > limit) {
    reader([](const char*, size_t) { return true; });  // httplib drops a body over its own limit
    return SendTooLarge(res, absl::StrCat("the trace is ", declared,
                                          " bytes, over the upload limit of ", limit, " bytes"));
  }

  auto upload = ctx.trace_query->BeginUpload(name, declared, sha256);
  if (!upload.ok()) {
    reader([](const char*, size_t) { return true; });
    return SendError(res, upload.status());
  }
  absl::Status forwarded = absl::OkStatus();
  std::string chunk;
  chunk.reserve(kChunkBytes);
  int64_t received = 0;
  bool over = false;
  StreamDigest digest;
  auto flush = [&] {
    if (!forwarded.ok() || chunk.empty()) return;
    forwarded = (*upload)->Write(chunk);
    chunk.clear();
  };
  const bool complete = reader([&](const char* data, size_t n) {
    received += static_cast<int64_t>(n);
    if (received > limit) {
      over = true;
      return received <= 2 * limit;  // drop the rest; give up on a body that never ends
    }
    if (!forwarded.ok()) return true;  // refused: read and drop the rest
    chunk.append(data, n);
    digest.Update(data, n);
    if (chunk.size() >= kChunkBytes) flush();
    return true;
  });
  // Leaving without Finish() cancels the upload; the replica discards the partial file.
  if (over) {
    return SendTooLarge(res,
                        absl::StrCat("the trace is over the upload limit of ", limit, " bytes"));
  }
  if (!complete) {
    return SendError(
        res, absl::InvalidArgumentError("the upload was cut short before the whole body arrived"));
  }
  flush();
  // A refusal mid-stream (junk, checksum, size) is the replica's own status, from Write.
  if (!forwarded.ok()) {
    if (forwarded.code() == absl::StatusCode::kResourceExhausted) {
      return SendTooLarge(res, std::string(forwarded.message()));
    }
    return SendError(res, forwarded);
  }
  // The trace's owner loads it when it is first used (the overview, a query, a session).
  auto result = (*upload)->Finish(/*load=*/false);
  if (!result.ok()) {
    const absl::Status& s = result.status();
    if (s.code() == absl::StatusCode::kResourceExhausted)
      return SendTooLarge(res, std::string(s.message()));
    return SendError(res, s);
  }
  SendJson(res, result->already_stored ? 200 : 201,
           {{"trace_id", result->trace_id},
            {"sha256", digest.Hex()},
            {"name", name},
            {"size_bytes", result->size_bytes},
            {"already_stored", result->already_stored}});
}

absl::StatusOr<pb::TraceInfo> LoadTrace(GatewayContext& ctx, const Caller& caller,
                                        const std::string& id) {
  pb::TraceInfo info;
  if (absl::Status s = ctx.trace_query->LoadTrace(id, &info); !s.ok()) return s;
  return info;
}

struct Capability {
  const char* name;
  const char* label;
  const char* table;
};

// What data a trace holds, by the tables that analyses read.
constexpr Capability kCapabilities[] = {
    {"sched", "CPU scheduling", "sched"},
    {"thread_state", "thread states", "thread_state"},
    {"slices", "slices (atrace / track events)", "slice"},
    {"frames", "frame timeline", "actual_frame_timeline_slice"},
    {"counters", "counters (frequency, memory, ...)", "counter"},
    {"logs", "Android logs", "android_logs"},
    {"processes", "processes", "process"},
    {"threads", "threads", "thread"},
};

absl::StatusOr<nlohmann::json> Overview(GatewayContext& ctx, const Caller& caller,
                                        const std::string& id) {
  auto info = LoadTrace(ctx, caller, id);
  if (!info.ok()) return info.status();
  SqlPageRequest counts{id, "SELECT "};
  for (size_t i = 0; i < std::size(kCapabilities); ++i) {
    absl::StrAppend(&counts.sql, i ? ", " : "", "(SELECT COUNT(*) FROM ", kCapabilities[i].table,
                    ") AS ", kCapabilities[i].name);
  }
  auto count_page = QueryPage(ctx, caller, counts);
  if (!count_page.ok()) return count_page.status();
  nlohmann::json capabilities = nlohmann::json::array();
  const auto& row = (*count_page)["rows"][0];
  for (size_t i = 0; i < std::size(kCapabilities); ++i) {
    const int64_t n = row[i].is_number_integer() ? row[i].get<int64_t>() : 0;
    capabilities.push_back({{"name", kCapabilities[i].name},
                            {"label", kCapabilities[i].label},
                            {"table", kCapabilities[i].table},
                            {"rows", n},
                            {"present", n > 0}});
  }
  SqlPageRequest processes{
      id,
      "SELECT p.upid, p.pid, p.name, p.cmdline, COUNT(t.utid) AS threads FROM process p "
      "LEFT JOIN thread t ON t.upid = p.upid GROUP BY p.upid "
      "ORDER BY threads DESC, p.upid"};
  processes.limit = 1000;
  auto process_page = QueryPage(ctx, caller, processes);
  if (!process_page.ok()) return process_page.status();
  nlohmann::json process_list = nlohmann::json::array();
  for (const auto& r : (*process_page)["rows"]) {
    process_list.push_back(
        {{"upid", r[0]}, {"pid", r[1]}, {"name", r[2]}, {"cmdline", r[3]}, {"threads", r[4]}});
  }
  // The focus app: the focus_app skill's best candidate (its first row).
  nlohmann::json focus = nullptr;
  auto run = RunSkill(ctx, caller, id, "focus_app", {});
  if (run.ok() && (*run)["outcome"] == "ok") {
    for (const auto& step : (*run)["steps"]) {
      if (step["step"] != "candidates" || !step.contains("envelope")) continue;
      const auto& env = step["envelope"];
      if (env["rows"].empty()) break;
      const auto& best = env["rows"][0];
      focus = nlohmann::json::object();
      for (size_t c = 0; c < env["columns"].size(); ++c)
        focus[env["columns"][c]["name"].get<std::string>()] = best[c];
      focus["name"] = focus.value("process_name", nlohmann::json(nullptr));
      if (focus.value("foreground_evidence", 0) == 0) {
        focus["reason"] = "guessed from main-thread CPU time (no frames, launches or input)";
      }
    }
  }
  return nlohmann::json{{"info", TraceInfoJson(*info)},
                        {"capabilities", std::move(capabilities)},
                        {"processes", std::move(process_list)},
                        {"focus_app", std::move(focus)}};
}

}  // namespace

void RegisterTraceRoutes(httplib::Server& server, GatewayContext& ctx) {
  server.Post("/api/traces", [&ctx](const httplib::Request& req, httplib::Response& res,
                                    const httplib::ContentReader& reader) {
    auto caller = ctx.authenticate(req.get_header_value("Authorization"));
    if (!caller.ok()) {
      reader([](const char*, size_t) { return true; });
      return SendError(res, caller.status());
    }
    rpc::ScopedCallAuthorization as_caller(caller->Authorization());  // the router's calls
    Upload(ctx, req, res, reader, *caller);
  });
  server.Get("/api/traces", Api(ctx, [&ctx](const httplib::Request&, httplib::Response& res,
                                            const Caller& caller) {
               pb::ListTracesResponse response;
               if (absl::Status s = ctx.trace_query->ListTraces(&response); !s.ok()) {
                 return SendError(res, s);
               }
               nlohmann::json traces = nlohmann::json::array();
               for (const auto& t : response.traces()) traces.push_back(TraceInfoJson(t));
               SendJson(res, 200,
                        {{"traces", std::move(traces)},
                         {"memory_budget_bytes", response.memory_budget_bytes()},
                         {"memory_used_bytes", response.memory_used_bytes()}});
             }));
  server.Get(
      R"(/api/traces/([^/]+))",
      Api(ctx, [&ctx](const httplib::Request& req, httplib::Response& res, const Caller& caller) {
        auto info = LoadTrace(ctx, caller, req.matches[1]);
        if (!info.ok()) return SendError(res, info.status());
        SendJson(res, 200, TraceInfoJson(*info));
      }));
  server.Get(
      R"(/api/traces/([^/]+)/overview)",
      Api(ctx, [&ctx](const httplib::Request& req, httplib::Response& res, const Caller& caller) {
        auto overview = Overview(ctx, caller, req.matches[1]);
        if (!overview.ok()) return SendError(res, overview.status());
        SendJson(res, 200, *overview);
      }));
}

}  // namespace tw::gateway
