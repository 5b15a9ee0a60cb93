#pragma once
// UTF-8 helpers for text that crosses into JSON (events, LLM requests): trace strings are
// arbitrary bytes, and a byte-count cut can split a multi-byte character.

#include <string>
#include <string_view>

namespace tw {

// At most `max_bytes` of `text`, never ending inside a multi-byte UTF-8 sequence.
inline std::string Utf8Prefix(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t end = max_bytes;
  // Back off over continuation bytes (10xxxxxx) to the lead byte, then drop the lead too.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end));
}

}  // namespace tw
