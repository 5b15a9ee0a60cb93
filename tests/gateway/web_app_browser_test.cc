// The web app in a real browser: the five services and the gateway as processes on loopback,
// the LLM a scripted OpenAI-protocol server (tests/llm), and headless Debian chromium driven by
// npm playwright-core (browser/web_app.test.mjs). This harness makes the traces, serves a small
// control API the browser test calls to script the model before each question (built from the
// uploaded trace's real numbers), and runs node. Screenshots and the measured first render go
// to build/tests/gateway/web_app_artifacts/.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "libs/rpc/grpc_query_backend.h"
#include "libs/strategy/strategy_library.h"
#include "tests/gateway/gateway_test_env.h"
#include "tests/security/security_env.h"
#include "tests/llm/scripted_llm_server.h"
#include "tests/llm/wire_scripts.h"

namespace tw::testing {
namespace {

using json = nlohmann::json;
using llm::testing::Call;
using llm::testing::OpenAiText;
using llm::testing::OpenAiToolCalls;
using llm::testing::ScriptedLlmServer;
using llm::testing::ScriptedResponse;

// A process whose command line is markup. Its name is argv[0] up to the first space ("<img"),
// as in trace_processor; the full text is its cmdline. The second is markup without spaces, so
// it is the whole name.
constexpr char kHostileName[] = "<img src=x onerror=alert(1)>";
constexpr char kHostileName2[] = "<img/src=y/onerror=alert(2)>";

// Scripts the model for each step of the browser test, from the uploaded trace's own numbers.
class ModelScripts {
 public:
  ModelScripts(ScriptedLlmServer* llm, std::string trace_query)
      : llm_(llm), trace_query_(std::move(trace_query)) {}

  // Returns an error message, empty on success.
  std::string Script(const std::string& name, const std::string& trace_id) {
    llm_->ClearScript();
    if (name == "investigation") return Investigation(trace_id);
    if (name == "scoped") {
      llm_->Enqueue(
          OpenAiText("Within the selected range the main thread is mostly running app code."));
      return "";
    }
    if (name == "client_tool") return ClientTool(trace_id);
    if (name == "slow_answer") {
      ScriptedResponse r = OpenAiText(SlowAnswer());
      r.delay_between_chunks_ms = 90;
      llm_->Enqueue(r);
      return "";
    }
    if (name == "comparison") {
      llm_->Enqueue(
          OpenAiText("Compared with the reference trace, this one has more janky frames."));
      return "";
    }
    return "unknown script " + name;
  }

  static std::string SlowAnswer() {
    std::string text = "Streaming a long answer: ";
    for (int i = 1; i <= 40; ++i) absl::StrAppend(&text, "part ", i, " of the answer. ");
    return text + "The end.";
  }

 private:
  absl::StatusOr<QueryResult> Sql(const std::string& trace_id, const std::string& sql) {
    rpc::GrpcQueryBackend backend(trace_query_);
    BackendQuery q;
    q.trace_id = trace_id;
    q.sql = sql;
    q.timeout = absl::Seconds(30);
    return backend.Query(q);
  }

  std::string Investigation(const std::string& trace_id) {
    auto strategies = strategy::StrategyLibrary::Load(TW_SOURCE_DIR "/strategies");
    if (!strategies.ok()) return std::string(strategies.status().message());
    const strategy::Strategy* scrolling = strategies->Find("scrolling");
    json phases = json::array();
    std::vector<Call> updates;
    for (const auto& p : scrolling->phases) {
      phases.push_back({{"id", p.id}, {"goal", p.goal}, {"skills", p.critical_skills}});
      updates.push_back(
          {"phase_" + p.id, "update_plan_phase",
           json{{"phase_id", p.id}, {"status", "done"}, {"summary", "see sql-1"}}.dump()});
    }
    const std::string plan = json{
        {"phases", phases},
        {"aspects", scrolling->plan_aspects},
        {"rationale",
         "frames first"}}.dump();
    const std::string frames_sql =
        "SELECT COUNT(*) AS frames, SUM(jank_type != 'None') AS janky_frames, MAX(dur) AS "
        "worst_frame_ns "
        "FROM actual_frame_timeline_slice WHERE upid = (SELECT upid FROM process WHERE name = "
        "'com.example.feed')";
    auto r = Sql(trace_id, frames_sql);
    if (!r.ok() || r->rows.empty()) return "frame query failed";
    const int64_t frames = r->rows[0][0].int_value;
    const int64_t janky = r->rows[0][1].int_value;
    const double worst_ms = static_cast<double>(r->rows[0][2].int_value) / 1e6;
    llm_->Enqueue(
        OpenAiToolCalls({{"call_plan", "submit_plan", plan}}, "Planning the frame analysis."));
    llm_->Enqueue(OpenAiToolCalls({{"call_sql", "execute_sql", json{{"sql", frames_sql}}.dump()}}));
    llm_->Enqueue(
        OpenAiToolCalls({{"call_skill", "invoke_skill", R"({"skill": "jank_root_causes"})"}}));
    llm_->Enqueue(OpenAiToolCalls(updates));
    const std::string answer = absl::StrFormat(
        "## Summary\nScrolling stutters: %d of %d frames missed their deadline.\n\n"
        "## Findings\n- [high] Janky frames — %d of %d frames were janky; the worst took %.1f ms. "
        "(evidence: sql-1)\n\n## Causal chain\n1. The main thread blocks in binder calls during "
        "frames (sql-1)\n\n"
        "## Recommendations\n- Move the binder calls off the main thread.\n",
        janky, frames, janky, frames, worst_ms);
    ScriptedResponse first = OpenAiText(answer);
    first.delay_between_chunks_ms = 25;  // the browser sees the answer stream in
    llm_->Enqueue(first);
    llm_->Enqueue(
        OpenAiText(answer));  // the same answer again if the verifier asks for a correction
    return "";
  }

  std::string ClientTool(const std::string& trace_id) {
    auto r = Sql(trace_id,
                 "SELECT s.id, s.name FROM slice s JOIN thread_track tt ON s.track_id = tt.id "
                 "JOIN thread t USING (utid) JOIN process p USING (upid) "
                 "WHERE p.name = 'com.example.feed' AND t.tid = p.pid AND s.name GLOB "
                 "'Choreographer#doFrame*' "
                 "ORDER BY s.dur DESC LIMIT 1");
    if (!r.ok() || r->rows.empty()) return "no doFrame slice on the main thread";
    slice_id_ = r->rows[0][0].int_value;
    // Three model steps: select the slice (the turn pauses until the page answers), then pin a
    // note on it and capture the CPU chart (two client tools in one step), then the answer.
    llm_->Enqueue(
        OpenAiToolCalls({{"call_select", "select_slice", json{{"slice_id", slice_id_}}.dump()}},
                        "Let me show you the slowest frame."));
    llm_->Enqueue(OpenAiToolCalls(
        {{"call_note", "add_annotation",
          json{{"slice_id", slice_id_},
               {"text", "slowest frame: binder <img src=z onerror=alert(3)> on the main thread"}}
              .dump()},
         {"call_capture", "capture_view", json{{"view", "cpu"}}.dump()}}));
    const std::string answer =
        absl::StrCat("The selected slice ", slice_id_, " is the slowest frame.");
    llm_->Enqueue(OpenAiText(answer));
    llm_->Enqueue(OpenAiText(answer));  // if the verifier asks for a correction
    return "";
  }

  ScriptedLlmServer* llm_;
  std::string trace_query_;
  int64_t slice_id_ = 0;
};

bool Exists(const char* path) { return access(path, X_OK) == 0; }

TEST(WebAppBrowserTest, UploadAskStreamScopeToolsReloadAndHostileInput) {
  const std::string web = TW_SOURCE_DIR "/services/gateway/web";
  if (!Exists("/usr/bin/chromium") ||
      !std::filesystem::exists(web + "/node_modules/playwright-core")) {
    GTEST_SKIP() << "needs /usr/bin/chromium and npm packages (bash tools/setup.sh installs both)";
  }
  ScriptedLlmServer llm;
  GatewayEnvOptions options;
  options.orchestrator_env = {"TRACEWISE_LLM_PROVIDER=openai", "TRACEWISE_LLM_MODEL=gpt-4o",
                              "TRACEWISE_LLM_BASE_URL=" + llm.BaseUrl() + "/v1",
                              "TRACEWISE_LLM_API_KEY=sk-browser-test",
                              "TRACEWISE_LLM_RETRY_BACKOFF_MS=1"};
  options.gateway_args = {"--max-upload-mb", "8", "--web-dir", TW_WEB_DIR};
  GatewayEnv env("web_app_browser", options);
  ASSERT_TRUE(env.Start()) << env.error();

  // Traces: the app under test (with a process whose name is markup), a reference, junk, and
  // one over the 8 MB limit.
  const std::string trace =
      env.Generate("scroll_binder_jank", 21, 4.0, 90, {kHostileName, kHostileName2});
  const std::string reference = env.Generate("scroll_smooth", 22, 3.0, 90);
  ASSERT_FALSE(trace.empty());
  ASSERT_FALSE(reference.empty());
  const std::string junk = env.dir() + "/junk.pftrace";
  std::ofstream(junk) << std::string(200'000, '\x07') << "not a trace";
  const std::string oversized = env.dir() + "/oversized.pftrace";
  std::ofstream(oversized) << std::string((size_t{8} << 20) + 4096, 'x');

  ModelScripts scripts(&llm, env.trace_query_address());
  httplib::Server control;
  control.Post(R"(/script/([a-z_]+))", [&](const httplib::Request& req, httplib::Response& res) {
    const std::string error = scripts.Script(req.matches[1], req.get_param_value("trace"));
    res.status = error.empty() ? 204 : 400;
    if (!error.empty()) res.set_content(error, "text/plain");
  });
  control.Get("/requests", [&](const httplib::Request&, httplib::Response& res) {
    json out = json::array();
    for (const auto& r : llm.Requests()) out.push_back(r.body);
    res.set_content(out.dump(), "application/json");
  });
  const int control_port = control.bind_to_any_port("127.0.0.1");
  std::thread control_thread([&] { control.listen_after_bind(); });

  const std::string artifacts = TW_ARTIFACTS_DIR;
  std::filesystem::remove_all(artifacts);
  std::filesystem::create_directories(artifacts);
  const std::string command = absl::StrCat(
      "cd ", web, " && TW_GATEWAY_URL=", env.gateway_url(),
      " TW_CONTROL_URL=http://127.0.0.1:", control_port, " TW_TRACE='", trace,
      "' TW_REFERENCE_TRACE='", reference, "' TW_JUNK_TRACE='", junk, "' TW_OVERSIZED_TRACE='",
      oversized, "' TW_ARTIFACTS='", artifacts, "' TW_HOSTILE_NAME='", kHostileName,
      "' TW_HOSTILE_NAME2='", kHostileName2, "' TW_SLOW_ANSWER='", ModelScripts::SlowAnswer(),
      "' node ", TW_SOURCE_DIR, "/tests/gateway/browser/web_app.test.mjs 2>&1");
  FILE* node = popen(command.c_str(), "r");
  ASSERT_NE(node, nullptr);
  std::string output;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, node)) > 0) {
    output.append(buf, n);
    fwrite(buf, 1, n, stdout);
    fflush(stdout);
  }
  const int status = pclose(node);
  control.stop();
  control_thread.join();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
  EXPECT_NE(output.find("web app browser test: all steps passed"), std::string::npos);
}

// With auth and TLS on (issue #16): the app asks for a token on the first 401, refuses a wrong
// one, lists only the caller's tenant's traces with the right one, keeps it across a reload and
// forgets it on sign-out.
TEST(WebAppBrowserTest, AsksForATokenWhenTheGatewayRequiresOne) {
  const std::string web = TW_SOURCE_DIR "/services/gateway/web";
  if (!Exists("/usr/bin/chromium") ||
      !std::filesystem::exists(web + "/node_modules/playwright-core")) {
    GTEST_SKIP() << "needs /usr/bin/chromium and npm packages (bash tools/setup.sh installs both)";
  }
  SecurityEnv security("tw-web-auth");
  ASSERT_TRUE(security.ok()) << "openssl could not make the test certificates";
  GatewayEnvOptions options;
  options.gateway_args = {"--web-dir", TW_WEB_DIR};
  options.security_flags = security.SecurityFlags();
  options.https_ca = security.pki().ca_cert;
  GatewayEnv env("web_app_auth", options);
  ASSERT_TRUE(env.Start()) << env.error();
  const std::string trace = env.Generate("scroll_smooth", 23, 1.0, 60);
  ASSERT_FALSE(trace.empty());
  std::ifstream in(trace, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  for (const auto& [tenant, name] : {std::pair<std::string, std::string>{"alpha", "alphas-own.pftrace"},
                                     {"beta", "betas-secret.pftrace"}}) {
    auto r = env.Client(security.Bearer(tenant, "uploader"))
                 ->Post(("/api/traces?name=" + name).c_str(), bytes, "application/octet-stream");
    ASSERT_TRUE(r && (r->status == 201 || r->status == 200)) << (r ? r->body : "no response");
  }
  const std::string artifacts = TW_ARTIFACTS_DIR;
  std::filesystem::create_directories(artifacts);
  const std::string key = security.Bearer("alpha", "viewer").substr(std::string("Bearer ").size());
  const std::string command = absl::StrCat(
      "cd ", web, " && TW_GATEWAY_URL=", env.gateway_url(), " TW_TOKEN='", key,
      "' TW_TRACE_NAME=alphas-own.pftrace TW_OTHER_TRACE_NAME=betas-secret.pftrace TW_ARTIFACTS='",
      artifacts, "' node ", TW_SOURCE_DIR, "/tests/gateway/browser/web_app_auth.test.mjs 2>&1");
  FILE* node = popen(command.c_str(), "r");
  ASSERT_NE(node, nullptr);
  std::string output;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, node)) > 0) output.append(buf, n);
  const int status = pclose(node);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
  EXPECT_NE(output.find("web app auth browser test: all steps passed"), std::string::npos) << output;
}

}  // namespace
}  // namespace tw::testing
