#pragma once
// Copies of window-manager protos without their window hierarchy below: the copy of a
// container (or of the dump entry) keeps every field except the `children` of the
// WindowContainerProto(s) that make up the container itself, so each container's row carries
// its own state and not its subtree's (which would repeat the hierarchy once per level).

#include <string>
#include <string_view>

namespace tw::windowmanager {

enum class PruneFrom {
  kEntry,           // WindowManagerTraceEntry: the root container's children go
  kRootContainer,   // RootWindowContainerProto
  kContainerChild,  // WindowContainerChildProto (any kind of container)
};

// The pruned copy (fields in their original order). Malformed input copies up to the damage.
std::string PruneChildren(std::string_view bytes, PruneFrom from);

}  // namespace tw::windowmanager
