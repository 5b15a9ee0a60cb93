// `tracewise serve` as a user runs it: one command, five processes on loopback, the URL printed;
// the web app and the API answer there; SIGTERM stops every child.

#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "tests/common/process_temp_dir.h"

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

}  // namespace
}  // namespace tw::testing
