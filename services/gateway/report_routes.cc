// GET /api/sessions/{id}/turns/{n}/report — the turn's report JSON with number links;
// GET /api/sessions/{id}/turns/{n}/export?format=html|md|json — the report as a download.

#include <openssl/evp.h>

#include <ctime>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "services/gateway/gateway_context.h"
#include "services/gateway/json_convert.h"
#include "services/gateway/number_links.h"
#include "services/gateway/report_export.h"

namespace tw::gateway {
namespace {

using nlohmann::json;

struct TurnReport {
  pb::Session session;
  pb::Turn turn;
  json report;
};

absl::StatusOr<TurnReport> LoadTurnReport(GatewayContext& ctx, const Caller& caller,
                                          const std::string& session_id,
                                          const std::string& turn_text) {
  int index = 0;
  if (!absl::SimpleAtoi(turn_text, &index) || index <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("turn must be a positive number, not '", turn_text, "'"));
  }
  TurnReport out;
  pb::GetSessionRequest request;
  request.set_session_id(session_id);
  auto call = ctx.NewCall(caller, ctx.options.unary_timeout_ms);
  const grpc::Status status = ctx.orchestrator->GetSession(call.get(), request, &out.session);
  if (!status.ok()) return FromGrpc(status);
  for (const auto& t : out.session.turns()) {
    if (t.index() != index) continue;
    if (t.status() == "running") {
      return absl::FailedPreconditionError(
          absl::StrCat("turn ", index, " is still running; its report comes when it ends"));
    }
    out.turn = t;
    out.report = json::parse(t.report_json().empty() ? "{}" : t.report_json(), nullptr, false);
    if (out.report.is_discarded())
      return absl::DataLossError(absl::StrCat("turn ", index, "'s stored report is not JSON"));
    AddNumberLinks(out.report);
    return out;
  }
  return absl::NotFoundError(absl::StrCat("session ", session_id, " has no turn ", index));
}

std::string Sha256File(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string data = buffer.str();
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(data.data(), data.size(), md, &n, EVP_sha256(), nullptr) != 1) return "";
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < n; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

// The model that answered, as the turn's events name it (providers report it with usage); the
// offline analyst when the report is deterministic.
std::string ModelOf(GatewayContext& ctx, const Caller& caller, const TurnReport& t) {
  if (t.report.value("deterministic", false)) return "none — offline analyst (deterministic)";
  pb::ResumeRequest request;
  request.set_session_id(t.session.id());
  request.set_from_seq(0);
  auto call = ctx.NewCall(caller, ctx.options.unary_timeout_ms);
  auto reader = ctx.orchestrator->Resume(call.get(), request);
  pb::AnalysisEvent e;
  std::string model;
  while (reader->Read(&e)) {
    if (e.turn() != t.turn.index()) continue;
    const json p = json::parse(e.payload_json(), nullptr, false);
    if (p.is_object()) {
      for (const char* key : {"model", "provider_model"}) {
        if (p.contains(key) && p[key].is_string() && !p[key].get<std::string>().empty())
          model = p[key].get<std::string>();
      }
    }
    if (e.kind() == "done") break;
  }
  call->TryCancel();
  reader->Finish();
  return model.empty() ? "LLM agent (the orchestrator did not name the model)" : model;
}

json Provenance(GatewayContext& ctx, const Caller& caller, const TurnReport& t) {
  json trace = {{"sha256", t.session.trace_id()}};
  {
    pb::ListTracesResponse traces;
    if (ctx.trace_query->ListTraces(&traces).ok()) {
      for (const auto& info : traces.traces()) {
        if (info.trace_id() != t.session.trace_id()) continue;
        trace["name"] = info.name();
        trace["format"] = info.format();
        trace["size_bytes"] = info.size_bytes();
      }
    }
  }
  // Skills the analysis ran, with the versions the skill engine holds.
  std::set<std::string> used;
  for (const char* key : {"steps", "artifacts"}) {
    if (!t.report.contains(key)) continue;
    for (const json& s : t.report[key]) {
      const std::string name = s.value("skill", "");
      if (!name.empty()) used.insert(name);
    }
  }
  json skills = json::array();
  {
    pb::ListSkillsResponse list;
    auto call = ctx.NewCall(caller, ctx.options.unary_timeout_ms);
    const bool listed =
        ctx.skill_engine->ListSkills(call.get(), pb::ListSkillsRequest(), &list).ok();
    for (const std::string& name : used) {
      std::string version;
      if (listed) {
        for (const auto& s : list.skills()) {
          if (s.name() == name) version = s.version();
        }
      }
      skills.push_back({{"name", name}, {"version", version}});
    }
  }
  const std::string scene = t.report.value("scene", t.turn.scene());
  json strategy = {{"scene", scene}};
  if (!ctx.options.strategies_dir.empty() && !scene.empty()) {
    const std::string file = scene + ".strategy.md";
    const std::string digest = Sha256File(ctx.options.strategies_dir + "/" + file);
    if (!digest.empty()) {
      strategy["file"] = "strategies/" + file;
      strategy["sha256"] = digest;
    }
  }
  char when[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return {{"trace", trace},
          {"session", {{"id", t.session.id()}, {"title", t.session.title()}}},
          {"turn",
           {{"index", t.turn.index()},
            {"question", t.turn.question()},
            {"mode", t.turn.mode()},
            {"scene", t.turn.scene()},
            {"status", t.turn.status()},
            {"reference_trace_id", t.turn.reference_trace_id()},
            {"started_unix_ms", t.turn.started_unix_ns() / 1'000'000},
            {"finished_unix_ms", t.turn.finished_unix_ns() / 1'000'000}}},
          {"skills", skills},
          {"strategy", strategy},
          {"model", ModelOf(ctx, caller, t)},
          {"verifier",
           {{"verified", t.report.value("verified", false)},
            {"issues", t.report.value("verifier_issues", json::array())}}},
          {"generated_at", when},
          {"generator", "tracewise-gateway"}};
}

}  // namespace

void RegisterReportRoutes(httplib::Server& server, GatewayContext& ctx) {
  server.Get(
      R"(/api/sessions/([^/]+)/turns/([^/]+)/report)",
      Api(ctx, [&ctx](const httplib::Request& req, httplib::Response& res, const Caller& caller) {
        auto t = LoadTurnReport(ctx, caller, req.matches[1], req.matches[2]);
        if (!t.ok()) return SendError(res, t.status());
        SendJson(res, 200, t->report);
      }));
  server.Get(
      R"(/api/sessions/([^/]+)/turns/([^/]+)/export)",
      Api(ctx, [&ctx](const httplib::Request& req, httplib::Response& res, const Caller& caller) {
        std::string format = req.get_param_value("format");
        if (format.empty()) format = "html";
        if (format != "html" && format != "md" && format != "json") {
          return SendError(res, absl::InvalidArgumentError(absl::StrCat(
                                    "format must be html, md or json, not '", format, "'")));
        }
        auto t = LoadTurnReport(ctx, caller, req.matches[1], req.matches[2]);
        if (!t.ok()) return SendError(res, t.status());
        const json provenance = Provenance(ctx, caller, *t);
        const std::string base =
            absl::StrCat("tracewise-report-", t->session.id(), "-turn", t->turn.index());
        if (format == "html") {
          res.set_content(RenderReportHtml(t->report, provenance), "text/html; charset=utf-8");
        } else if (format == "md") {
          res.set_content(RenderReportMarkdown(t->report, provenance),
                          "text/markdown; charset=utf-8");
        } else {
          res.set_content(RenderReportJson(t->report, provenance),
                          "application/json; charset=utf-8");
        }
        res.set_header("Content-Disposition", absl::StrCat("attachment; filename=\"", base, ".",
                                                           format == "md" ? "md" : format, "\""));
      }));
}

}  // namespace tw::gateway
