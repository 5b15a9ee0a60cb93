#pragma once
// A service binary run as a child process by `tracewise serve`: started with `--listen
// HOST:0`-style arguments, ready once it prints its "listening on ADDRESS" line, its further
// output passed through with a name prefix, stopped with SIGTERM (SIGKILL after a grace period).

#include <sys/types.h>

#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"

namespace tw::cli {

class ChildService {
 public:
  ChildService(std::string name, std::string binary, std::vector<std::string> args);
  ~ChildService();
  ChildService(const ChildService&) = delete;
  ChildService& operator=(const ChildService&) = delete;

  // Starts the process and waits (up to `timeout_s`) for its address.
  absl::Status Start(int timeout_s = 60);
  void Stop();
  const std::string& address() const { return address_; }
  const std::string& name() const { return name_; }
  pid_t pid() const { return pid_; }

 private:
  std::string name_;
  std::string binary_;
  std::vector<std::string> args_;
  std::string address_;
  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::thread relay_;
};

// The binary `name` for this installation: $TRACEWISE_BIN_DIR, beside the running executable
// (an install), the build tree's services/<dir>/ (build/tools/tracewise → build/services), PATH.
std::string FindServiceBinary(const std::string& name, const std::string& build_subdir);

}  // namespace tw::cli
