#include "libs/trace/importers/proto/inflate_bytes.h"

#include <zlib.h>

namespace tw {

std::optional<std::string> InflateBytes(std::string_view in, Compression format,
                                        size_t max_bytes) {
  z_stream z{};
  // 15 window bits read a zlib header; +16 a gzip one.
  const int window_bits = format == Compression::kGzip ? 15 + 16 : 15;
  if (inflateInit2(&z, window_bits) != Z_OK) return std::nullopt;
  std::string out;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  char buf[64 * 1024];
  int rc;
  do {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof(buf);
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;
    out.append(buf, sizeof(buf) - z.avail_out);
    if (out.size() > max_bytes) break;
  } while (rc != Z_STREAM_END);
  inflateEnd(&z);
  if (rc != Z_STREAM_END) return std::nullopt;
  return out;
}

}  // namespace tw
