#pragma once
// A throwaway PostgreSQL server for tests: Debian's server binaries (/usr/lib/postgresql/N/bin),
// a data directory and a Unix socket in a fresh temporary directory, run as an unprivileged user
// (`nobody` when the test runs as root: the server refuses root), stopped and deleted by the
// destructor. Tests skip with `skip_reason()` when the binaries are not installed
// (tools/setup.sh installs them).

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace tw::testing {

class PostgresServer {
 public:
  // `durable`: the server's default fsync and synchronous commit (benchmarks measure what a
  // real deployment pays); otherwise both off, which tests do not need and which is faster.
  explicit PostgresServer(bool durable = false) {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
      const fs::path bin = entry.path() / "bin";
      if (fs::exists(bin / "initdb") && fs::exists(bin / "pg_ctl") &&
          (bin_.empty() || bin.string() > bin_)) {
        bin_ = bin.string();
      }
    }
    if (bin_.empty()) {
      skip_ = "PostgreSQL server binaries not found under /usr/lib/postgresql (bash tools/setup.sh installs them)";
      return;
    }
    char tmpl[] = "/tmp/twpg-XXXXXX";  // short: a Unix socket path has ~100 characters
    if (!mkdtemp(tmpl)) {
      skip_ = "cannot create a temporary directory";
      return;
    }
    dir_ = tmpl;
    as_ = geteuid() == 0 ? "runuser -u nobody -- " : "";
    const std::string own = geteuid() == 0 ? "chown nobody " + dir_ + " && " : "";
    const std::string init = own + "cd " + dir_ + " && " + as_ + bin_ + "/initdb -D " + dir_ +
                             "/data -U postgres -A trust --no-sync -E UTF8 > " + dir_ +
                             "/initdb.log 2>&1";
    if (std::system(init.c_str()) != 0) {
      skip_ = "initdb failed (see " + dir_ + "/initdb.log)";
      return;
    }
    const std::string durability = durable ? "" : " -c fsync=off -c synchronous_commit=off";
    const std::string start = "cd " + dir_ + " && " + as_ + bin_ + "/pg_ctl -D " + dir_ +
                              "/data -l " + dir_ + "/server.log -w -t 60 -o \"-k " + dir_ +
                              " -c listen_addresses=''" + durability +
                              " -c max_connections=200 -p 5432\" start > /dev/null";
    if (std::system(start.c_str()) != 0) {
      skip_ = "the PostgreSQL server did not start (see " + dir_ + "/server.log)";
      return;
    }
    started_ = true;
    url_ = "postgresql:///postgres?host=" + dir_ + "&port=5432&user=postgres";
  }

  ~PostgresServer() {
    if (started_) {
      const std::string stop = "cd " + dir_ + " && " + as_ + bin_ + "/pg_ctl -D " + dir_ +
                               "/data -m immediate -w stop > /dev/null 2>&1";
      (void)std::system(stop.c_str());
    }
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
    }
  }

  bool ok() const { return started_; }
  const std::string& skip_reason() const { return skip_; }
  // A libpq URL (Unix socket) for the `postgres` superuser and database.
  const std::string& url() const { return url_; }

 private:
  std::string bin_, dir_, as_, url_, skip_;
  bool started_ = false;
};

}  // namespace tw::testing
