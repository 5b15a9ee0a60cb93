#pragma once
// Inflating a compressed blob held in memory: compressed_packets (zlib) and an
// ExtensionDescriptor's extension_set_gzip (gzip) are small enough to expand whole.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tw {

enum class Compression { kZlib, kGzip };

// The inflated bytes, or nullopt if `in` is damaged, truncated or would inflate past
// `max_bytes` (a decompression bomb).
std::optional<std::string> InflateBytes(std::string_view in, Compression format,
                                        size_t max_bytes = size_t{512} << 20);

}  // namespace tw
