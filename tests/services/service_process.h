#pragma once
// Starts a service binary as a real child process on an ephemeral loopback port and stops it:
// the integration tests talk to it exactly as other services would.

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace tw::testing {

class ServiceProcess {
 public:
  // Runs `binary args... --listen 127.0.0.1:0` and waits for its "listening on HOST:PORT" line.
  // `env`: NAME=VALUE assignments added to the child's environment.
  ServiceProcess(const std::string& binary, std::vector<std::string> args,
                 std::vector<std::string> env = {}) {
    int out[2];
    if (pipe(out) != 0) return;
    args.insert(args.begin(), binary);
    args.push_back("--listen");
    args.push_back("127.0.0.1:0");
    pid_ = fork();
    if (pid_ == 0) {
      for (auto& assignment : env) putenv(assignment.data());
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      close(out[1]);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(binary.c_str(), argv.data());
      _exit(127);
    }
    close(out[1]);
    FILE* in = fdopen(out[0], "r");
    char line[512];
    // The server prints its address once it is ready to serve.
    while (in && fgets(line, sizeof line, in)) {
      const std::string s(line);
      const size_t at = s.find("listening on ");
      if (at != std::string::npos) {
        address_ = s.substr(at + 13);
        while (!address_.empty() && (address_.back() == '\n' || address_.back() == '\r')) address_.pop_back();
        break;
      }
    }
    stdout_ = in;
  }

  ~ServiceProcess() { Stop(); }

  // SIGTERM, then wait; returns the exit status (or -1).
  int Stop() {
    if (pid_ <= 0) return -1;
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    if (stdout_) fclose(stdout_);
    stdout_ = nullptr;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  // Simulates a crash.
  void Kill() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  bool ok() const { return !address_.empty(); }
  pid_t pid() const { return pid_; }
  const std::string& address() const { return address_; }

 private:
  pid_t pid_ = -1;
  FILE* stdout_ = nullptr;
  std::string address_;
};

}  // namespace tw::testing
