#include "tools/tracewise/child_service.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace tw::cli {

ChildService::ChildService(std::string name, std::string binary, std::vector<std::string> args)
    : name_(std::move(name)), binary_(std::move(binary)), args_(std::move(args)) {}

ChildService::~ChildService() { Stop(); }

absl::Status ChildService::Start(int timeout_s) {
  int out[2];
  if (pipe(out) != 0) return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  std::vector<std::string> argv_storage = args_;
  argv_storage.insert(argv_storage.begin(), binary_);
  pid_ = fork();
  if (pid_ < 0) return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
  if (pid_ == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    // The parent blocks SIGINT/SIGTERM to take them synchronously; the child must not inherit that.
    sigset_t all;
    sigemptyset(&all);
    pthread_sigmask(SIG_SETMASK, &all, nullptr);
    std::vector<char*> argv;
    for (auto& a : argv_storage) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(binary_.c_str(), argv.data());
    std::fprintf(stderr, "tracewise serve: cannot run %s: %s\n", binary_.c_str(),
                 std::strerror(errno));
    _exit(127);
  }
  close(out[1]);
  out_fd_ = out[0];
  // Read lines until the address shows up (or the child dies, or time runs out).
  std::string pending;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  while (address_.empty()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{out_fd_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
    char buf[512];
    const ssize_t n = read(out_fd_, buf, sizeof buf);
    if (n <= 0) break;
    pending.append(buf, static_cast<size_t>(n));
    size_t nl;
    while ((nl = pending.find('\n')) != std::string::npos) {
      const std::string line = pending.substr(0, nl);
      pending.erase(0, nl + 1);
      const size_t at = line.find("listening on ");
      if (at != std::string::npos && address_.empty()) {
        address_ = line.substr(at + 13);
        while (!address_.empty() && (address_.back() == '\r' || address_.back() == ' '))
          address_.pop_back();
      } else {
        std::fprintf(stdout, "[%s] %s\n", name_.c_str(), line.c_str());
      }
    }
  }
  if (address_.empty()) {
    Stop();
    return absl::UnavailableError(absl::StrCat(name_, " (", binary_, ") did not start"));
  }
  // Keep draining its stdout so it never blocks on a full pipe.
  relay_ = std::thread([fd = out_fd_, name = name_] {
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
      std::fwrite(buf, 1, static_cast<size_t>(n), stdout);
      std::fflush(stdout);
    }
  });
  return absl::OkStatus();
}

void ChildService::Stop() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    int status = 0;
    bool exited = false;
    for (int i = 0; i < 100 && !exited; ++i) {  // 10 s grace
      exited = waitpid(pid_, &status, WNOHANG) == pid_;
      if (!exited) usleep(100'000);
    }
    if (!exited) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
    }
    pid_ = -1;
  }
  if (relay_.joinable()) relay_.join();
  if (out_fd_ >= 0) {
    close(out_fd_);
    out_fd_ = -1;
  }
}

std::string FindServiceBinary(const std::string& name, const std::string& build_subdir) {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (const char* dir = std::getenv("TRACEWISE_BIN_DIR"); dir && *dir)
    candidates.push_back(fs::path(dir) / name);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path() / name);
    candidates.push_back(exe.parent_path().parent_path().parent_path() / "services" / build_subdir /
                         name);
  }
  if (const char* path = std::getenv("PATH")) {
    for (const auto& dir : absl::StrSplit(path, ':'))
      candidates.push_back(fs::path(std::string(dir)) / name);
  }
  for (const auto& c : candidates) {
    if (access(c.c_str(), X_OK) == 0) return c.string();
  }
  return "";
}

}  // namespace tw::cli
