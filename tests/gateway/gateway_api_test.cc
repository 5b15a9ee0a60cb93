// The gateway's HTTP API against the real services on loopback (all five as processes): status
// mapping with messages, uploads (streamed, limits, checksum, junk), SQL paging, skills,
// sessions, SSE with Last-Event-ID resume, client tool results (the scripted model calls client
// tools; the turn pauses and resumes on the same stream), reports with number links, exports,
// CORS. Each test runs twice: plaintext with auth off, and secured (issue #16) — every process
// with an auth config and mTLS, the gateway over HTTPS, the client with an admin's API key.

#include <openssl/evp.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "tests/gateway/gateway_test_env.h"
#include "tests/security/security_env.h"
#include "tests/llm/scripted_llm_server.h"
#include "tests/llm/tiny_png.h"
#include "tests/llm/wire_scripts.h"

namespace tw::testing {
namespace {

using json = nlohmann::json;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Sha256Hex(const std::string& data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), md, &n, EVP_sha256(), nullptr);
  std::string out;
  for (unsigned int i = 0; i < n; ++i) {
    out += "0123456789abcdef"[md[i] >> 4];
    out += "0123456789abcdef"[md[i] & 15];
  }
  return out;
}

json Body(const httplib::Result& r) {
  if (!r) return nullptr;
  return json::parse(r->body, nullptr, false);
}

// Asserts an API error: the HTTP status, the gRPC code name and a message mentioning `words`.
void ExpectError(const httplib::Result& r, int http, const std::string& code,
                 const std::string& words) {
  ASSERT_TRUE(r) << "no response";
  EXPECT_EQ(r->status, http) << r->body;
  const json b = Body(r);
  ASSERT_TRUE(b.is_object()) << r->body;
  EXPECT_EQ(b["error"]["code"], code) << r->body;
  EXPECT_EQ(b["error"]["http_status"], http);
  EXPECT_NE(b["error"]["message"].get<std::string>().find(words), std::string::npos) << r->body;
}

class GatewayApiTest : public ::testing::TestWithParam<bool> {
 protected:
  static void TearDownTestSuite() {
    delete security_;
    security_ = nullptr;
  }
  bool secured() const { return GetParam(); }

  void StartEnv(const std::string& name, GatewayEnvOptions options = {}) {
    if (secured()) {
      if (security_ == nullptr) security_ = new SecurityEnv("tw-gw-api");
      ASSERT_TRUE(security_->ok()) << "openssl could not make the test certificates";
      options.security_flags = security_->SecurityFlags();
      options.https_ca = security_->pki().ca_cert;
      options.authorization = security_->Bearer("alpha", "admin");
    }
    env_ = std::make_unique<GatewayEnv>(name + (secured() ? "_secured" : ""), std::move(options));
    ASSERT_TRUE(env_->Start()) << env_->error();
    client_ = env_->Client();
  }

  std::string Upload(const std::string& path, int expect_status = 201) {
    const std::string data = ReadFile(path);
    auto r = client_->Post("/api/traces?name=scroll.pftrace", data, "application/octet-stream");
    EXPECT_TRUE(r);
    if (!r) return "";
    EXPECT_EQ(r->status, expect_status) << r->body;
    return Body(r).value("trace_id", "");
  }

  std::unique_ptr<GatewayEnv> env_;
  std::unique_ptr<httplib::Client> client_;
  static SecurityEnv* security_;
};
SecurityEnv* GatewayApiTest::security_ = nullptr;

TEST_P(GatewayApiTest, UploadStreamsChecksumsAndRefusesJunkAndOversizedTraces) {
  StartEnv("gw_upload", {{}, {"--max-upload-mb", "4"}});
  const std::string path = env_->Generate("scroll_binder_jank", 3, 2.0, 60);
  ASSERT_FALSE(path.empty());
  const std::string data = ReadFile(path);
  ASSERT_LT(data.size(), size_t{4} << 20);
  const std::string sha = Sha256Hex(data);

  // The id is the content's sha256 (a tenant's own id for it when tenancy is on); a checksum
  // given by the client is verified.
  httplib::Headers with_sha = {{"X-Content-SHA256", sha}};
  auto first =
      client_->Post("/api/traces?name=scroll.pftrace", with_sha, data, "application/octet-stream");
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 201) << first->body;
  EXPECT_EQ(Body(first)["sha256"], sha);
  if (!secured()) {
    EXPECT_EQ(Body(first)["trace_id"], sha);
  }
  const std::string first_id = Body(first).value("trace_id", "");
  EXPECT_EQ(Body(first)["size_bytes"], static_cast<int64_t>(data.size()));
  auto again = client_->Post("/api/traces?name=again.pftrace", data, "application/octet-stream");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200);
  EXPECT_EQ(Body(again)["already_stored"], true);

  httplib::Headers wrong_sha = {{"X-Content-SHA256", std::string(64, 'a')}};
  ExpectError(client_->Post("/api/traces", wrong_sha, data, "application/octet-stream"), 400,
              "INVALID_ARGUMENT", "sha256");
  httplib::Headers bad_sha = {{"X-Content-SHA256", "xyz"}};
  ExpectError(client_->Post("/api/traces", bad_sha, data, "application/octet-stream"), 400,
              "INVALID_ARGUMENT", "64 hex digits");

  // Junk: trace-query's own words reach the client.
  const std::string junk(300'000, 'j');
  auto refused = client_->Post("/api/traces?name=junk.bin", junk, "application/octet-stream");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400) << refused->body;
  EXPECT_EQ(Body(refused)["error"]["code"], "INVALID_ARGUMENT");
  EXPECT_FALSE(Body(refused)["error"]["message"].get<std::string>().empty());

  // Over the gateway's limit: by Content-Length, and streamed without one (chunked).
  const std::string big((size_t{4} << 20) + 1, 'x');
  ExpectError(client_->Post("/api/traces?name=big", big, "application/octet-stream"), 413,
              "RESOURCE_EXHAUSTED", "upload limit");
  size_t sent = 0;
  auto chunked = client_->Post(
      "/api/traces?name=big-chunked",
      [&](size_t, httplib::DataSink& sink) {
        if (sent >= big.size()) {
          sink.done();
          return true;
        }
        const size_t n = std::min<size_t>(65536, big.size() - sent);
        sink.write(big.data() + sent, n);
        sent += n;
        return true;
      },
      "application/octet-stream");
  ExpectError(chunked, 413, "RESOURCE_EXHAUSTED", "upload limit");

  // Nothing of the refused uploads was stored; the good trace is intact.
  auto list = client_->Get("/api/traces");
  ASSERT_TRUE(list);
  ASSERT_EQ(Body(list)["traces"].size(), 1u) << list->body;
  EXPECT_EQ(Body(list)["traces"][0]["trace_id"], first_id);
  auto info = client_->Get(("/api/traces/" + first_id).c_str());
  ASSERT_TRUE(info);
  EXPECT_EQ(info->status, 200);
  EXPECT_EQ(Body(info)["state"], "loaded");
  EXPECT_GT(Body(info)["duration_ns"].get<int64_t>(), 1'000'000'000);
}

TEST_P(GatewayApiTest, StatusesAreMappedFromGrpcCodesWithTheirMessages) {
  StartEnv("gw_status");
  const std::string id = Upload(env_->Generate("scroll_smooth", 5, 2.0, 60));
  ASSERT_FALSE(id.empty());
  const std::string unknown(64, 'e');
  ExpectError(client_->Get(("/api/traces/" + unknown).c_str()), 404, "NOT_FOUND", unknown);
  ExpectError(client_->Get("/api/traces/0123"), 400, "INVALID_ARGUMENT", "0123");
  ExpectError(client_->Post(("/api/traces/" + id + "/query").c_str(),
                            R"({"sql": "SELEC nonsense"})", "application/json"),
              400, "INVALID_ARGUMENT", "syntax error");
  ExpectError(client_->Post(("/api/traces/" + id + "/query").c_str(),
                            R"({"sql": "DELETE FROM slice"})", "application/json"),
              403, "PERMISSION_DENIED", "");
  ExpectError(
      client_->Post(("/api/traces/" + id + "/query").c_str(), R"({"sql": 5})", "application/json"),
      400, "INVALID_ARGUMENT", "sql");
  ExpectError(
      client_->Post(("/api/traces/" + id + "/query").c_str(), "{not json", "application/json"), 400,
      "INVALID_ARGUMENT", "JSON");
  ExpectError(client_->Get("/api/skills/no_such_skill"), 404, "NOT_FOUND", "no_such_skill");
  ExpectError(client_->Post(("/api/traces/" + id + "/skill-runs").c_str(),
                            R"({"skill": "frame_overview", "params": {"upid": "twelve"}})",
                            "application/json"),
              400, "INVALID_ARGUMENT", "upid");
  ExpectError(client_->Get("/api/sessions/nosuchsession"), 404, "NOT_FOUND", "nosuchsession");
  ExpectError(
      client_->Post("/api/sessions", json{{"trace_id", unknown}}.dump(), "application/json"), 404,
      "NOT_FOUND", unknown);
  ExpectError(client_->Post("/api/sessions/nosuchsession/cancel", "", "application/json"), 404,
              "NOT_FOUND", "");
  ExpectError(client_->Get("/api/nothing/here"), 404, "NOT_FOUND", "/api/nothing/here");
  // A JSON body over the request limit, and a body where none belongs.
  const std::string huge = R"({"sql": ")" + std::string(17 << 20, 'x') + R"("})";
  ExpectError(client_->Post(("/api/traces/" + id + "/query").c_str(), huge, "application/json"),
              413, "RESOURCE_EXHAUSTED", "limit");
  // A cancel with no turn running is a conflict, not a server error.
  auto session = client_->Post("/api/sessions", json{{"trace_id", id}}.dump(), "application/json");
  ASSERT_TRUE(session);
  ASSERT_EQ(session->status, 201) << session->body;
  const std::string sid = Body(session)["id"];
  ExpectError(client_->Post(("/api/sessions/" + sid + "/cancel").c_str(), "", "application/json"),
              409, "FAILED_PRECONDITION", "");
  ExpectError(client_->Post(("/api/sessions/" + sid + "/turns").c_str(), R"({"question": ""})",
                            "application/json"),
              400, "INVALID_ARGUMENT", "");
  ExpectError(
      client_->Post(("/api/sessions/" + sid + "/turns").c_str(),
                    R"({"question": "why?", "options": {"mode": "sideways"}})", "application/json"),
      400, "INVALID_ARGUMENT", "mode");
  ExpectError(client_->Post(("/api/sessions/" + sid + "/turns").c_str(),
                            R"({"question": "why?", "options": {"selection": {"start_ns": "x"}}})",
                            "application/json"),
              400, "INVALID_ARGUMENT", "selection");
  httplib::Headers bad_resume = {{"Last-Event-ID", "minus-one"}};
  ExpectError(client_->Get(("/api/sessions/" + sid + "/events").c_str(), bad_resume), 400,
              "INVALID_ARGUMENT", "Last-Event-ID");
  ExpectError(client_->Get(("/api/sessions/" + sid + "/turns/7/report").c_str()), 404, "NOT_FOUND",
              "turn 7");
  // No CORS unless configured: no header, and preflights are refused.
  httplib::Headers origin = {{"Origin", "http://elsewhere.example"}};
  auto plain = client_->Get("/api/traces", origin);
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->has_header("Access-Control-Allow-Origin"));
  auto preflight = client_->Options("/api/traces", origin);
  ASSERT_TRUE(preflight);
  EXPECT_EQ(preflight->status, 403);
}

TEST_P(GatewayApiTest, CorsOnlyForConfiguredOrigins) {
  StartEnv("gw_cors", {{}, {"--cors-origin", "http://tools.example"}});
  httplib::Headers allowed = {{"Origin", "http://tools.example"}};
  httplib::Headers other = {{"Origin", "http://evil.example"}};
  auto ok = client_->Get("/api/traces", allowed);
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->get_header_value("Access-Control-Allow-Origin"), "http://tools.example");
  auto preflight = client_->Options("/api/sessions", allowed);
  ASSERT_TRUE(preflight);
  EXPECT_EQ(preflight->status, 204);
  EXPECT_NE(preflight->get_header_value("Access-Control-Allow-Headers").find("Last-Event-ID"),
            std::string::npos);
  auto denied = client_->Get("/api/traces", other);
  ASSERT_TRUE(denied);
  EXPECT_FALSE(denied->has_header("Access-Control-Allow-Origin"));
}

TEST_P(GatewayApiTest, SqlIsPagedAndOverviewDescribesTheTrace) {
  StartEnv("gw_sql");
  const std::string id = Upload(env_->Generate("scroll_binder_jank", 9, 2.0, 90));
  ASSERT_FALSE(id.empty());
  const std::string sql = "SELECT id, ts, dur, name FROM slice ORDER BY id";
  auto count =
      client_->Post(("/api/traces/" + id + "/query").c_str(),
                    json{{"sql", "SELECT COUNT(*) AS n FROM slice"}}.dump(), "application/json");
  ASSERT_TRUE(count);
  ASSERT_EQ(count->status, 200) << count->body;
  const int64_t total = Body(count)["rows"][0][0];
  ASSERT_GT(total, 250);
  std::set<int64_t> ids;
  json page;
  int64_t offset = 0;
  int pages = 0;
  do {
    auto r = client_->Post(("/api/traces/" + id + "/query").c_str(),
                           json{{"sql", sql}, {"offset", offset}, {"limit", 100}}.dump(),
                           "application/json");
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    page = Body(r);
    EXPECT_EQ(page["columns"].size(), 4u);
    for (const auto& row : page["rows"]) EXPECT_TRUE(ids.insert(row[0].get<int64_t>()).second);
    ++pages;
    if (page["next_offset"].is_null()) break;
    offset = page["next_offset"];
  } while (pages < 1000);
  EXPECT_EQ(static_cast<int64_t>(ids.size()), total);
  EXPECT_EQ(pages, (total + 99) / 100);
  // Bound parameters.
  auto bound = client_->Post(
      ("/api/traces/" + id + "/query").c_str(),
      json{{"sql", "SELECT :a + :b AS s, :t AS t"}, {"params", {{"a", 40}, {"b", 2}, {"t", "x"}}}}
          .dump(),
      "application/json");
  ASSERT_TRUE(bound);
  EXPECT_EQ(Body(bound)["rows"][0][0], 42);
  EXPECT_EQ(Body(bound)["rows"][0][1], "x");

  auto overview = client_->Get(("/api/traces/" + id + "/overview").c_str());
  ASSERT_TRUE(overview);
  ASSERT_EQ(overview->status, 200) << overview->body;
  const json o = Body(overview);
  EXPECT_EQ(o["focus_app"]["name"], "com.example.feed");
  bool frames = false;
  for (const auto& c : o["capabilities"]) frames |= c["name"] == "frames" && c["present"] == true;
  EXPECT_TRUE(frames) << o["capabilities"].dump();
  EXPECT_GT(o["processes"].size(), 5u);

  auto skills = client_->Get("/api/skills");
  ASSERT_TRUE(skills);
  EXPECT_GT(Body(skills)["skills"].size(), 10u);
  auto describe = client_->Get("/api/skills/jank_root_causes");
  ASSERT_TRUE(describe);
  EXPECT_EQ(Body(describe)["name"], "jank_root_causes");
  auto run = client_->Post(
      ("/api/traces/" + id + "/skill-runs").c_str(),
      json{{"skill", "frame_overview"}, {"params", {{"upid", o["focus_app"]["upid"]}}}}.dump(),
      "application/json");
  ASSERT_TRUE(run);
  ASSERT_EQ(run->status, 200) << run->body;
  EXPECT_EQ(Body(run)["outcome"], "ok");
  ASSERT_FALSE(Body(run)["steps"].empty());
  EXPECT_FALSE(Body(run)["steps"][0]["envelope"]["columns"].empty());
}

TEST_P(GatewayApiTest, AskStreamsNumberedEventsAndLastEventIdResumesWithoutLossOrDoubles) {
  StartEnv("gw_sse");
  const std::string id = Upload(env_->Generate("scroll_binder_jank", 4, 3.0, 90));
  ASSERT_FALSE(id.empty());
  auto created = client_->Post("/api/sessions", json{{"trace_id", id}, {"title", "t"}}.dump(),
                               "application/json");
  ASSERT_TRUE(created);
  ASSERT_EQ(created->status, 201) << created->body;
  const std::string sid = Body(created)["id"];

  auto ask =
      client_->Post(("/api/sessions/" + sid + "/turns").c_str(),
                    json{{"question", "why does scrolling stutter?"}}.dump(), "application/json");
  ASSERT_TRUE(ask);
  ASSERT_EQ(ask->status, 200) << ask->body;
  EXPECT_EQ(ask->get_header_value("Content-Type"), "text/event-stream");
  const auto events = ParseSse(ask->body);
  ASSERT_GT(events.size(), 5u);
  EXPECT_EQ(events.back().event, "end");
  std::vector<SseEvent> numbered(events.begin(), events.end() - 1);
  for (size_t i = 0; i < numbered.size(); ++i) {
    EXPECT_EQ(numbered[i].id, std::to_string(i + 1));
    const json d = json::parse(numbered[i].data);
    EXPECT_EQ(d["seq"], static_cast<int64_t>(i + 1));
    EXPECT_EQ(d["kind"], numbered[i].event);
    EXPECT_EQ(d["turn"], 1);
    EXPECT_TRUE(d["payload"].is_object());
  }
  EXPECT_EQ(numbered.back().event, "done");
  bool finding = false;
  for (const auto& e : numbered) finding |= e.event == "finding";
  EXPECT_TRUE(finding);

  // Resume after event 3 with Last-Event-ID: exactly 4..N.
  httplib::Headers after3 = {{"Last-Event-ID", "3"}};
  auto resumed = client_->Get(("/api/sessions/" + sid + "/events").c_str(), after3);
  ASSERT_TRUE(resumed);
  auto replay = ParseSse(resumed->body);
  ASSERT_EQ(replay.size(), numbered.size() - 3 + 1);
  for (size_t i = 0; i + 1 < replay.size(); ++i) EXPECT_EQ(replay[i].id, numbered[i + 3].id);

  // A client that goes away mid-stream, then resumes from the last event it saw.
  std::string partial;
  int seen = 0;
  auto cut = client_->Get(("/api/sessions/" + sid + "/events").c_str(), httplib::Headers{},
                          [&](const char* data, size_t n) {
                            partial.append(data, n);
                            seen = static_cast<int>(ParseSse(partial).size());
                            return seen < 5;
                          });
  EXPECT_FALSE(cut);  // the client cancelled
  const auto got = ParseSse(partial);
  ASSERT_GE(got.size(), 5u);
  httplib::Headers from = {{"Last-Event-ID", got.back().id}};
  auto rest = client_->Get(("/api/sessions/" + sid + "/events").c_str(), from);
  ASSERT_TRUE(rest);
  std::vector<std::string> all;
  for (const auto& e : got) all.push_back(e.id);
  for (const auto& e : ParseSse(rest->body)) {
    if (e.event != "end") all.push_back(e.id);
  }
  ASSERT_EQ(all.size(), numbered.size());
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], std::to_string(i + 1));

  // The session and its report; numbers in findings link to the rows of cited evidence.
  auto session = client_->Get(("/api/sessions/" + sid).c_str());
  ASSERT_TRUE(session);
  EXPECT_EQ(Body(session)["turns"][0]["status"], "done");
  EXPECT_EQ(Body(session)["last_seq"], static_cast<int64_t>(numbered.size()));
  auto report = client_->Get(("/api/sessions/" + sid + "/turns/1/report").c_str());
  ASSERT_TRUE(report);
  ASSERT_EQ(report->status, 200) << report->body;
  const json r = Body(report);
  ASSERT_FALSE(r["findings"].empty());
  int links = 0;
  for (const auto& f : r["findings"]) {
    for (const auto& l : f["links"]) {
      ++links;
      const std::string desc = f["description"];
      EXPECT_EQ(
          desc.substr(l["start"], static_cast<size_t>(l["end"]) - static_cast<size_t>(l["start"])),
          l["text"].get<std::string>());  // ASCII descriptions: UTF-16 = bytes
      bool cited = false;
      for (const auto& e : f["evidence"]) cited |= e == l["artifact_id"];
      EXPECT_TRUE(cited);
    }
  }
  EXPECT_GT(links, 0) << r["findings"].dump(1);

  // Exports: self-contained HTML with provenance, Markdown, JSON.
  auto html = client_->Get(("/api/sessions/" + sid + "/turns/1/export?format=html").c_str());
  ASSERT_TRUE(html);
  ASSERT_EQ(html->status, 200) << html->body;
  EXPECT_NE(html->get_header_value("Content-Disposition").find("attachment"), std::string::npos);
  EXPECT_NE(html->body.find(id), std::string::npos);  // trace sha256
  EXPECT_NE(html->body.find("jank_root_causes v"), std::string::npos);
  EXPECT_NE(html->body.find("scrolling"), std::string::npos);
  EXPECT_NE(html->body.find("offline analyst"), std::string::npos);
  EXPECT_NE(html->body.find("Verifier"), std::string::npos);
  EXPECT_EQ(html->body.find("<script"), std::string::npos);
  EXPECT_EQ(html->body.find("src=\"http"), std::string::npos);
  auto md = client_->Get(("/api/sessions/" + sid + "/turns/1/export?format=md").c_str());
  ASSERT_TRUE(md);
  EXPECT_NE(md->body.find("## Findings"), std::string::npos);
  auto js = client_->Get(("/api/sessions/" + sid + "/turns/1/export?format=json").c_str());
  ASSERT_TRUE(js);
  EXPECT_EQ(Body(js)["provenance"]["trace"]["sha256"], id);
  ExpectError(client_->Get(("/api/sessions/" + sid + "/turns/1/export?format=pdf").c_str()), 400,
              "INVALID_ARGUMENT", "pdf");

  auto del = client_->Delete(("/api/sessions/" + sid).c_str());
  ASSERT_TRUE(del);
  EXPECT_EQ(del->status, 204);
  ExpectError(client_->Get(("/api/sessions/" + sid).c_str()), 404, "NOT_FOUND", "");
}

// POST /api/sessions/{id}/tool-results → Orchestrator.SubmitToolResult, with the scripted model
// asking for two client tools in one step: the turn waits (GetSession lists both), bad answers
// get precise statuses, the first answer leaves one pending, the second (a PNG) resumes the turn
// and the same SSE stream carries on to `done`, gapless.
TEST_P(GatewayApiTest, ClientToolResultsResumeTheTurnWithPreciseStatuses) {
  llm::testing::ScriptedLlmServer llm;
  GatewayEnvOptions options;
  options.orchestrator_env = {"TRACEWISE_LLM_PROVIDER=openai", "TRACEWISE_LLM_MODEL=gpt-4o",
                              "TRACEWISE_LLM_BASE_URL=" + llm.BaseUrl() + "/v1",
                              "TRACEWISE_LLM_API_KEY=sk-gateway-test",
                              "TRACEWISE_LLM_RETRY_BACKOFF_MS=1"};
  StartEnv("gw_client_tools", options);
  const std::string id = Upload(env_->Generate("scroll_binder_jank", 9, 2.0, 60));
  ASSERT_FALSE(id.empty());
  auto created = client_->Post("/api/sessions", json{{"trace_id", id}}.dump(), "application/json");
  ASSERT_TRUE(created);
  ASSERT_EQ(created->status, 201) << created->body;
  const std::string sid = Body(created)["id"];
  const std::string results = "/api/sessions/" + sid + "/tool-results";

  // Unknown client tools are refused before any turn starts.
  ExpectError(client_->Post(("/api/sessions/" + sid + "/turns").c_str(),
                            R"({"question": "q", "options": {"client_tools": ["teleport"]}})",
                            "application/json"),
              400, "INVALID_ARGUMENT", "teleport");
  ExpectError(client_->Post(("/api/sessions/" + sid + "/turns").c_str(),
                            R"({"question": "q", "options": {"client_tools": "select_slice"}})",
                            "application/json"),
              400, "INVALID_ARGUMENT", "client_tools");

  llm.Enqueue(llm::testing::OpenAiToolCalls({{"call_sel", "select_slice", R"({"slice_id": 3})"},
                                             {"call_cap", "capture_view", R"({"view": "frames"})"}},
                                            "Let me show you."));
  const std::string answer = "Slice 3 is selected and the frames view was captured.";
  llm.Enqueue(llm::testing::OpenAiText(answer));
  llm.Enqueue(llm::testing::OpenAiText(answer));  // if the verifier asks for a correction

  int ask_status = 0;
  std::string ask_body;
  std::thread asker([&] {
    auto c = env_->Client();
    auto ask = c->Post(("/api/sessions/" + sid + "/turns").c_str(),
                       json{{"question", "show me slice 3 and the frames"},
                            {"options", {{"client_tools", {"select_slice", "capture_view"}}}}}
                           .dump(),
                       "application/json");
    if (ask) {
      ask_status = ask->status;
      ask_body = ask->body;
    }
  });
  // On a failed assertion below: cancel the waiting turn so the Ask stream ends and the thread
  // joins.
  struct JoinAsker {
    std::thread& thread;
    std::function<void()> cancel;
    ~JoinAsker() {
      if (thread.joinable()) {
        cancel();
        thread.join();
      }
    }
  } join_asker{asker, [&] {
                 env_->Client()->Post(("/api/sessions/" + sid + "/cancel").c_str(), "",
                                      "application/json");
               }};
  // The turn waits for the client: GetSession names both requests.
  json pending;
  for (int i = 0; i < 600 && pending.size() < 2; ++i) {
    auto s = client_->Get(("/api/sessions/" + sid).c_str());
    if (s && s->status == 200) {
      const json b = Body(s);
      if (!b["turns"].empty() && b["turns"][0]["status"] == "waiting_for_client") {
        pending = b["turns"][0].value("pending_client_tools", json::array());
        EXPECT_TRUE(b["busy"].get<bool>());
      }
    }
    if (pending.size() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(pending.size(), 2u) << "the turn never waited for both client tools";
  std::string select_id, capture_id;
  for (const json& r : pending) {
    (r["tool"] == "select_slice" ? select_id : capture_id) = r["request_id"];
    EXPECT_GT(r["deadline_unix_ms"].get<int64_t>(), 0);
  }
  ASSERT_EQ(pending[0]["tool"] == "select_slice" ? pending[0]["arguments"]["slice_id"]
                                                 : pending[1]["arguments"]["slice_id"],
            3);

  auto post = [&](const json& body) {
    return client_->Post(results.c_str(), body.dump(), "application/json");
  };
  // Malformed answers never reach the orchestrator; wrong ones get its status and message.
  ExpectError(post({{"result", {{"selected", true}}}}), 400, "INVALID_ARGUMENT", "request_id");
  ExpectError(post({{"request_id", select_id}}), 400, "INVALID_ARGUMENT", "exactly one");
  ExpectError(post({{"request_id", select_id}, {"result", 1}, {"error", "x"}}), 400,
              "INVALID_ARGUMENT", "exactly one");
  ExpectError(post({{"request_id", select_id}, {"error", 7}}), 400, "INVALID_ARGUMENT", "error");
  ExpectError(post({{"request_id", capture_id}, {"image_base64", "***"}}), 400, "INVALID_ARGUMENT",
              "base64");
  ExpectError(post({{"request_id", capture_id},
                    {"image_base64", absl::Base64Escape("<svg/>")},
                    {"mime_type", "image/svg+xml"}}),
              400, "INVALID_ARGUMENT", "image/svg+xml");
  ExpectError(post({{"request_id", "ct-unknown"}, {"result", {{"selected", true}}}}), 404,
              "NOT_FOUND", "");
  ExpectError(
      client_->Post("/api/sessions/nosuchsession/tool-results",
                    json{{"request_id", select_id}, {"result", true}}.dump(), "application/json"),
      404, "NOT_FOUND", "");
  ExpectError(client_->Post(results.c_str(), "{not json", "application/json"), 400,
              "INVALID_ARGUMENT", "JSON");

  // The first answer: one still pending, not resumed. A second answer to it is a conflict.
  auto first = post({{"request_id", select_id}, {"result", {{"selected", true}, {"slice_id", 3}}}});
  ASSERT_TRUE(first);
  ASSERT_EQ(first->status, 200) << first->body;
  EXPECT_EQ(Body(first)["turn"], 1);
  EXPECT_EQ(Body(first)["pending"], 1);
  EXPECT_FALSE(Body(first)["resumed"].get<bool>());
  ExpectError(post({{"request_id", select_id}, {"result", true}}), 409, "FAILED_PRECONDITION",
              "already answered");
  // The last answer, a PNG: the turn resumes and the Ask stream carries on to its end.
  auto second = post({{"request_id", capture_id},
                      {"image_base64", absl::Base64Escape(llm::testing::TinyPng())},
                      {"mime_type", "image/png"}});
  ASSERT_TRUE(second);
  ASSERT_EQ(second->status, 200) << second->body;
  EXPECT_EQ(Body(second)["pending"], 0);
  EXPECT_TRUE(Body(second)["resumed"].get<bool>());
  asker.join();
  ASSERT_EQ(ask_status, 200) << ask_body;
  const auto events = ParseSse(ask_body);
  ASSERT_GT(events.size(), 3u);
  EXPECT_EQ(events.back().event, "end");
  int requests = 0, client_results = 0;
  for (size_t i = 0; i + 1 < events.size(); ++i) {
    EXPECT_EQ(events[i].id, std::to_string(i + 1)) << "one gapless stream across the pause";
    const json d = json::parse(events[i].data);
    if (events[i].event == "client_tool_request") ++requests;
    if (events[i].event == "tool_result" && d["payload"].value("client", false)) ++client_results;
  }
  EXPECT_EQ(requests, 2);
  EXPECT_EQ(client_results, 2);
  EXPECT_EQ(events[events.size() - 2].event, "done");
  // The model read both answers: the selection as the tool's text, the PNG as an image.
  const auto received = llm.Requests();
  ASSERT_GE(received.size(), 2u);
  EXPECT_NE(received[1].body.find(R"(\"slice_id\":3)"), std::string::npos) << received[1].body;
  EXPECT_NE(received[1].body.find("data:image/png;base64,"), std::string::npos);
  auto session = client_->Get(("/api/sessions/" + sid).c_str());
  ASSERT_TRUE(session);
  EXPECT_EQ(Body(session)["turns"][0]["status"], "done");
  EXPECT_FALSE(Body(session)["turns"][0].contains("pending_client_tools"));
  // After the turn: the request is settled.
  ExpectError(post({{"request_id", capture_id}, {"error", "too late"}}), 409, "FAILED_PRECONDITION",
              "");
}

TEST_P(GatewayApiTest, ServesTheWebApp) {
  StartEnv("gw_web");
  auto index = client_->Get("/");
  ASSERT_TRUE(index);
  ASSERT_EQ(index->status, 200);
  EXPECT_NE(index->body.find("<div id=\"app\">"), std::string::npos);
  EXPECT_NE(index->get_header_value("Content-Security-Policy").find("default-src 'self'"),
            std::string::npos);
  auto js = client_->Get("/app.js");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->status, 200);
  EXPECT_GT(js->body.size(), 10'000u);
}

INSTANTIATE_TEST_SUITE_P(AuthAndTls, GatewayApiTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "Secured" : "Plain";
                         });

}  // namespace
}  // namespace tw::testing
