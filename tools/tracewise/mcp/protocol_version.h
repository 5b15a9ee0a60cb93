#pragma once
// The MCP revisions this server speaks. It is dual-era (basic/versioning of 2026-07-28):
// - modern (2026-07-28): no handshake; every request names its version and the client's
//   capabilities in `_meta`, and `server/discover` advertises what the server supports;
// - legacy (2025-11-25 back to 2024-11-05): an `initialize` handshake negotiates one version
//   for the rest of the stdio process.

#include <string>
#include <vector>

namespace tw::mcp {

inline constexpr char kModernVersion[] = "2026-07-28";
inline constexpr char kLatestLegacyVersion[] = "2025-11-25";

// `_meta` keys of the modern per-request fields.
inline constexpr char kMetaProtocolVersion[] = "io.modelcontextprotocol/protocolVersion";
inline constexpr char kMetaClientCapabilities[] = "io.modelcontextprotocol/clientCapabilities";
inline constexpr char kMetaClientInfo[] = "io.modelcontextprotocol/clientInfo";
inline constexpr char kMetaServerInfo[] = "io.modelcontextprotocol/serverInfo";

// Every version, newest first (what `server/discover` and UnsupportedProtocolVersion list).
const std::vector<std::string>& SupportedVersions();
bool IsModernVersion(const std::string& version);
bool IsLegacyVersion(const std::string& version);
// The answer to a legacy `initialize` asking for `requested`: the same version when supported,
// else the newest legacy version (the client disconnects if it cannot speak it).
std::string NegotiateLegacyVersion(const std::string& requested);

}  // namespace tw::mcp
