// `tracewise serve` as a user runs it: one command, five processes on loopback, the URL printed;
// the web app and the API answer there; SIGTERM stops every child. Without an auth config it
// refuses a non-loopback address; with one (and TLS files) it serves HTTPS and wants tokens.

#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "tests/common/process_temp_dir.h"
#include "tests/security/test_pki.h"

namespace tw::testing {
namespace {

int CountChildren(pid_t parent) {
  FILE* ps = popen(("ps -o pid= --ppid " + std::to_string(parent)).c_str(), "r");
  int n = 0;
  char line[64];
  while (ps && fgets(line, sizeof line, ps)) ++n;
  if (ps) pclose(ps);
  return n;
}

TEST(ServeTest, StartsTheStackPrintsTheUrlAndStopsEverything) {
  const std::string data = ProcessTempDir() + "serve-data";
  int out[2];
  ASSERT_EQ(pipe(out), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    execl(TW_TRACEWISE_BINARY, TW_TRACEWISE_BINARY, "serve", "--port", "0", "--data-dir",
          data.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  FILE* in = fdopen(out[0], "r");
  std::string url;
  char line[1024];
  while (fgets(line, sizeof line, in)) {
    const std::string s(line);
    const size_t at = s.find("open http://");
    if (at != std::string::npos) {
      url = s.substr(at + 5);
      url = url.substr(0, url.find_first_of("/\n", 7));
      break;
    }
  }
  ASSERT_FALSE(url.empty()) << "no URL printed";
  EXPECT_EQ(url.rfind("http://127.0.0.1:", 0), 0u) << url;  // loopback by default
  EXPECT_EQ(CountChildren(pid), 5);
  httplib::Client client(url);
  auto health = client.Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  auto page = client.Get("/");
  ASSERT_TRUE(page);
  EXPECT_NE(page->body.find("<div id=\"app\">"), std::string::npos);
  auto skills = client.Get("/api/skills");  // reaches the skill-engine child
  ASSERT_TRUE(skills);
  EXPECT_EQ(skills->status, 200) << skills->body;
  auto traces = client.Get("/api/traces");  // reaches trace-query
  ASSERT_TRUE(traces);
  EXPECT_EQ(traces->status, 200);
  auto sessions = client.Get("/api/sessions");  // reaches the orchestrator
  ASSERT_TRUE(sessions);
  EXPECT_EQ(sessions->status, 200);

  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  fclose(in);
  EXPECT_FALSE(client.Get("/healthz"));  // the gateway is gone with it
}

// Runs a shell command; its stdout and stderr, and its exit status.
std::string RunShell(const std::string& command, int* status) {
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  std::string out;
  char buf[512];
  while (p && fgets(buf, sizeof buf, p)) out += buf;
  const int raw = p ? pclose(p) : -1;
  *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return out;
}

TEST(ServeTest, RefusesAnAddressBeyondLoopbackWithoutAuthentication) {
  int status = 0;
  const std::string out = RunShell(std::string(TW_TRACEWISE_BINARY) + " serve --host 0.0.0.0 --port 0 --data-dir " +
                                  ProcessTempDir() + "serve-refused",
                              &status);
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("--auth-config"), std::string::npos) << out;
  EXPECT_EQ(out.find("is running"), std::string::npos) << out;
}

TEST(ServeTest, WithAnAuthConfigAndTlsServesHttpsAndWantsATokenEverywhere) {
  const std::string dir = ProcessTempDir() + "serve-secured";
  std::filesystem::create_directories(dir);
  const TestPki pki = MakeTestPki(dir + "/pki");
  ASSERT_TRUE(pki.ok) << "openssl could not make the test certificates";
  int status = 0;
  std::string key = RunShell(std::string(TW_TRACEWISE_BINARY) + " auth issue --tenant acme --role admin --config " +
                            dir + "/auth.yaml",
                        &status);
  ASSERT_EQ(status, 0) << key;
  // The key is printed alone on stdout (notes go to stderr, mixed in here): twk_...
  const size_t at = key.find("twk_");
  ASSERT_NE(at, std::string::npos) << key;
  key = key.substr(at, key.find_first_of(" \n", at) - at);
  ASSERT_FALSE(key.empty());

  int out[2];
  ASSERT_EQ(pipe(out), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    const std::string data = dir + "/data", auth = dir + "/auth.yaml";
    execl(TW_TRACEWISE_BINARY, TW_TRACEWISE_BINARY, "serve", "--port", "0", "--data-dir", data.c_str(),
          "--auth-config", auth.c_str(), "--tls-cert", pki.server_cert.c_str(), "--tls-key",
          pki.server_key.c_str(), "--tls-ca", pki.ca_cert.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  FILE* in = fdopen(out[0], "r");
  std::string url;
  char line[1024];
  while (fgets(line, sizeof line, in)) {
    const std::string s(line);
    const size_t at = s.find("open https://");
    if (at != std::string::npos) {
      url = s.substr(at + 5);
      url = url.substr(0, url.find_first_of("/\n", 8));
      break;
    }
  }
  ASSERT_FALSE(url.empty()) << "no https URL printed";
  httplib::Client client(url);
  client.set_ca_cert_path(pki.ca_cert);
  client.enable_server_certificate_verification(true);
  auto anonymous = client.Get("/api/traces");
  ASSERT_TRUE(anonymous);
  EXPECT_EQ(anonymous->status, 401);
  client.set_bearer_token_auth(key);
  for (const char* path : {"/api/traces", "/api/skills", "/api/sessions"}) {  // every service, over mTLS
    auto r = client.Get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 200) << path << ": " << r->body;
  }
  kill(pid, SIGTERM);
  int exit_status = 0;
  waitpid(pid, &exit_status, 0);
  EXPECT_TRUE(WIFEXITED(exit_status) && WEXITSTATUS(exit_status) == 0);
  fclose(in);
}

}  // namespace
}  // namespace tw::testing
