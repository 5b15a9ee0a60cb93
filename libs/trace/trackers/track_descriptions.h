#pragma once
// What some kinds of track measure, stored as the track's "description" arg (its
// source_arg_set_id) so the UI and the agent can explain a counter without the docs.

#include <optional>
#include <string_view>

namespace tw {

// The description of a track of `type` told apart by `key` (its process_memory_key, ...);
// nullopt when that kind of track carries none.
std::optional<std::string_view> TrackDescription(std::string_view type, std::string_view key);

}  // namespace tw
