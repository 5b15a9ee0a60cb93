#include "services/gateway/static_files.h"

#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"

namespace tw::gateway {
namespace {

std::string ContentType(const std::string& extension) {
  // "; charset=utf-8" also keeps httplib from compressing these again (it matches exact types).
  if (extension == ".html") return "text/html; charset=utf-8";
  if (extension == ".js") return "application/javascript; charset=utf-8";
  if (extension == ".css") return "text/css; charset=utf-8";
  if (extension == ".json") return "application/json; charset=utf-8";
  if (extension == ".svg") return "image/svg+xml; charset=utf-8";
  if (extension == ".png") return "image/png";
  if (extension == ".ico") return "image/x-icon";
  return "application/octet-stream";
}

std::string Gzip(const std::string& data) {
  z_stream z{};
  if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) return "";
  std::string out(deflateBound(&z, data.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return rc == Z_STREAM_END ? out : "";
}

}  // namespace

absl::StatusOr<StaticFiles> StaticFiles::Load(const std::string& dir) {
  namespace fs = std::filesystem;
  StaticFiles out;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (!entry.is_regular_file() || entry.file_size() > (size_t{32} << 20)) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    File f;
    f.content_type = ContentType(entry.path().extension().string());
    f.body = buffer.str();
    // Text is worth compressing once; images are compressed already. text/* would be
    // compressed by httplib again, so those stay as they are (they are small).
    if (f.body.size() > 1024 && f.content_type.rfind("application/", 0) == 0) f.gzip = Gzip(f.body);
    out.files_["/" + fs::relative(entry.path(), dir).generic_string()] = std::move(f);
  }
  if (ec)
    return absl::NotFoundError(
        absl::StrCat("cannot read the web app in ", dir, ": ", ec.message()));
  if (!out.files_.count("/index.html")) {
    return absl::NotFoundError(absl::StrCat("the web app is not built: no index.html in ", dir,
                                            " (bash tools/build.sh builds it)"));
  }
  return out;
}

bool StaticFiles::Serve(const httplib::Request& req, httplib::Response& res) const {
  const std::string path = req.path == "/" ? "/index.html" : req.path;
  const auto it = files_.find(path);
  if (it == files_.end()) return false;
  const File& f = it->second;
  res.set_header("Cache-Control", "no-cache");
  if (!f.gzip.empty() &&
      req.get_header_value("Accept-Encoding").find("gzip") != std::string::npos) {
    res.set_header("Content-Encoding", "gzip");
    res.set_header("Vary", "Accept-Encoding");
    res.set_content(f.gzip, f.content_type);
  } else {
    res.set_content(f.body, f.content_type);
  }
  return true;
}

}  // namespace tw::gateway
