// `tracewise serve [--port 8080]`: the whole stack on this machine — trace-query, skill-engine,
// verifier, orchestrator and the gateway with the web app — each as its own process on loopback
// (the same binaries a deployment runs), wired together, stopped together. Prints the URL.

#include <signal.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "libs/skills/skill_library.h"
#include "libs/strategy/strategy_library.h"
#include "tools/tracewise/child_service.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

void PrintServeUsage() {
  std::fprintf(
      stderr,
      "usage: tracewise serve [--port 8080] [--host 127.0.0.1] [--data-dir tracewise-data]\n"
      "                       [--max-upload-mb 2048] [--memory-budget-mb 4096]\n"
      "                       [--auth-config FILE] [--tls-cert FILE --tls-key FILE [--tls-ca FILE]]\n"
      "  Starts trace-query, skill-engine, verifier, orchestrator and the gateway (web app +\n"
      "  HTTP API) as child processes and prints the URL to open. The LLM comes from\n"
      "  TRACEWISE_LLM_* (none: the offline analyst answers). Ctrl-C stops everything.\n"
      "  --auth-config FILE  every service requires bearer tokens (tracewise auth issue); needed\n"
      "                      to serve a --host other than loopback\n"
      "  --tls-cert/--tls-key  the gateway serves HTTPS; with --tls-ca the services also speak\n"
      "                      mTLS to each other with this certificate\n");
}

bool IsLoopback(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

}  // namespace

int RunServe(const Args& args) {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string data_dir = "tracewise-data";
  std::string max_upload_mb = "2048";
  std::string budget_mb = "4096";
  std::string auth_config, tls_cert, tls_key, tls_ca;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= args.size()) return false;
      *out = args[++i];
      return true;
    };
    std::string v;
    if (a == "--help" || a == "-h") {
      PrintServeUsage();
      return 0;
    } else if (a == "--port" && value(&v) && absl::SimpleAtoi(v, &port) && port >= 0 &&
               port < 65536) {
    } else if (a == "--host" && value(&host)) {
    } else if (a == "--data-dir" && value(&data_dir)) {
    } else if (a == "--max-upload-mb" && value(&max_upload_mb)) {
    } else if (a == "--memory-budget-mb" && value(&budget_mb)) {
    } else if (a == "--auth-config" && value(&auth_config)) {
    } else if (a == "--tls-cert" && value(&tls_cert)) {
    } else if (a == "--tls-key" && value(&tls_key)) {
    } else if (a == "--tls-ca" && value(&tls_ca)) {
    } else {
      std::fprintf(stderr, "tracewise serve: bad argument '%s'\n", a.c_str());
      PrintServeUsage();
      return 2;
    }
  }
  if (tls_cert.empty() != tls_key.empty() || (!tls_ca.empty() && tls_cert.empty())) {
    std::fprintf(stderr, "tracewise serve: --tls-cert and --tls-key go together (--tls-ca needs both)\n");
    return 2;
  }
  if (auth_config.empty() && !IsLoopback(host)) {
    std::fprintf(stderr,
                 "tracewise serve: refusing to serve %s without authentication — anyone who "
                 "reaches it could read and upload traces. Give --auth-config FILE (tracewise "
                 "auth issue --tenant T --role admin --config FILE creates one) or use a "
                 "loopback --host.\n",
                 host.c_str());
    return 2;
  }
  if (auth_config.empty()) {
    std::fprintf(stderr,
                 "tracewise serve: WARNING: authentication is OFF — every local user can read, "
                 "upload and delete traces and sessions (give --auth-config FILE to require "
                 "tokens)\n");
  }
  // Security flags each child gets: the auth config everywhere; TLS files for the gateway's
  // HTTPS, and for every service (mTLS between them) when a CA is given.
  std::vector<std::string> service_security, gateway_security;
  if (!auth_config.empty()) {
    service_security = {"--auth-config", auth_config};
    gateway_security = service_security;
  }
  if (!tls_cert.empty()) {
    for (const std::string& f : {std::string("--tls-cert"), tls_cert, std::string("--tls-key"), tls_key}) {
      gateway_security.push_back(f);
    }
    if (!tls_ca.empty()) {
      for (const std::string& f : {std::string("--tls-cert"), tls_cert, std::string("--tls-key"),
                                   tls_key, std::string("--tls-ca"), tls_ca}) {
        service_security.push_back(f);
      }
      gateway_security.push_back("--tls-ca");
      gateway_security.push_back(tls_ca);
    }
  }
  struct Binary {
    const char* name;
    const char* dir;
  };
  const Binary kBinaries[] = {{"tracewise-trace-query", "trace_query"},
                              {"tracewise-skill-engine", "skill_engine"},
                              {"tracewise-verifier", "verifier"},
                              {"tracewise-orchestrator", "orchestrator"},
                              {"tracewise-gateway", "gateway"}};
  std::vector<std::string> paths;
  for (const Binary& b : kBinaries) {
    paths.push_back(FindServiceBinary(b.name, b.dir));
    if (paths.back().empty()) {
      std::fprintf(stderr,
                   "tracewise serve: cannot find %s (build it: bash tools/build.sh, or set "
                   "TRACEWISE_BIN_DIR)\n",
                   b.name);
      return 1;
    }
  }
  std::error_code ec;
  std::filesystem::create_directories(data_dir + "/traces", ec);
  const std::string skills = skills::DefaultSkillsDir();
  const std::string strategies = strategy::DefaultStrategiesDir();

  // Block the stop signals before any child or thread starts; children unblock them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGCHLD);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  const std::string loopback = "127.0.0.1:0";
  std::vector<std::unique_ptr<ChildService>> children;
  auto start = [&](size_t i, std::vector<std::string> a) -> const ChildService* {
    const auto& extra = i == 4 ? gateway_security : service_security;
    a.insert(a.end(), extra.begin(), extra.end());
    children.push_back(std::make_unique<ChildService>(kBinaries[i].name, paths[i], std::move(a)));
    if (absl::Status s = children.back()->Start(); !s.ok()) {
      std::fprintf(stderr, "tracewise serve: %s\n", std::string(s.message()).c_str());
      return nullptr;
    }
    return children.back().get();
  };
  auto stop_all = [&] {
    for (auto it = children.rbegin(); it != children.rend(); ++it) (*it)->Stop();
  };
  const ChildService* tq =
      start(0, {"--listen", loopback, "--data-dir", data_dir + "/traces", "--max-upload-mb",
                max_upload_mb, "--memory-budget-mb", budget_mb});
  const ChildService* se =
      tq ? start(1, {"--listen", loopback, "--trace-query", tq->address(), "--skills", skills})
         : nullptr;
  const ChildService* vf = se ? start(2, {"--listen", loopback}) : nullptr;
  const ChildService* orch =
      vf ? start(3, {"--listen", loopback, "--trace-query", tq->address(), "--skill-engine",
                     se->address(), "--verifier", vf->address(), "--data-dir", data_dir,
                     "--strategies", strategies, "--skills", skills})
         : nullptr;
  const ChildService* gw =
      orch ? start(4, {"--listen", absl::StrCat(host, ":", port), "--trace-query", tq->address(),
                       "--skill-engine", se->address(), "--orchestrator", orch->address(),
                       "--max-upload-mb", max_upload_mb, "--strategies", strategies})
           : nullptr;
  if (gw == nullptr) {
    stop_all();
    return 1;
  }
  std::printf("Tracewise is running: open %s/\n", gw->address().c_str());
  std::printf("  trace-query %s · skill-engine %s · verifier %s · orchestrator %s · data in %s\n",
              tq->address().c_str(), se->address().c_str(), vf->address().c_str(),
              orch->address().c_str(), data_dir.c_str());
  std::printf("  Ctrl-C stops all of them.\n");
  std::fflush(stdout);

  // Until a stop signal, or until one of the services exits on its own.
  int code = 0;
  for (;;) {
    int received = 0;
    sigwait(&signals, &received);
    if (received != SIGCHLD) {
      std::fprintf(stderr, "tracewise serve: stopping\n");
      break;
    }
    bool died = false;
    for (const auto& c : children) {
      int status = 0;
      if (c->pid() > 0 && waitpid(c->pid(), &status, WNOHANG) == c->pid()) {
        std::fprintf(stderr, "tracewise serve: %s exited (status %d); stopping the others\n",
                     c->name().c_str(), status);
        died = true;
      }
    }
    if (died) {
      code = 1;
      break;
    }
  }
  stop_all();
  return code;
}

}  // namespace tw::cli
