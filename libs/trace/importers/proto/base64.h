#pragma once
// Standard base64 (RFC 4648, with padding): metadata keeps some opaque proto blobs this way
// (cr-background_tracing_metadata, ui_state), as trace_processor does.

#include <string>
#include <string_view>

namespace tw {

std::string Base64Encode(std::string_view bytes);

}  // namespace tw
