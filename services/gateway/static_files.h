#pragma once
// The built web app, read once at start and served from memory: `/` is index.html, other paths
// are files of the directory. Files httplib would compress on every request are compressed once
// here (gzip) and sent with a content type it leaves alone — its own compression is brotli at
// the highest quality, about a second per request for app.js on a busy machine.

#include <httplib.h>

#include <map>
#include <string>

#include "absl/status/statusor.h"

namespace tw::gateway {

class StaticFiles {
 public:
  StaticFiles() = default;
  static absl::StatusOr<StaticFiles> Load(const std::string& dir);
  // Answers GET `path`; false when there is no such file.
  bool Serve(const httplib::Request& req, httplib::Response& res) const;

 private:
  struct File {
    std::string content_type;
    std::string body;
    std::string gzip;  // empty: not worth compressing
  };
  std::map<std::string, File> files_;
};

}  // namespace tw::gateway
