#pragma once
// The window hierarchy of a window-manager dump, flattened: one entry per container (the
// root, display contents, display areas, tasks, task fragments, activities, window tokens,
// windows, plain containers) in depth-first order, with its identity (hash-code token and
// title), its parent's token and its index among the parent's children, its visibility, and
// for displays and windows the rect winscope draws: a display's logical size at depth 0, and
// each window's frame, stacked from depth 1 in hierarchy order within its display.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tw::windowmanager {

struct ContainerRect {
  int32_t x = 0, y = 0, w = 0, h = 0;
  int32_t display_id = 0;
  uint32_t depth = 0;
  bool is_visible = false;
  std::optional<double> opacity;
};

struct Container {
  std::string_view type;  // RootWindowContainer, DisplayContent, Task, WindowState, ...
  std::string title;
  int32_t token = 0;
  std::optional<int32_t> parent_token;
  std::optional<uint32_t> child_index;
  bool is_visible = false;
  std::optional<ContainerRect> rect;
  std::optional<std::string> name_override;
  std::string_view bytes;  // the container's message (RootWindowContainerProto for the root,
                           // else WindowContainerChildProto), children included
};

// Flattens the hierarchy of a WindowManagerTraceEntry. False when a container lacks the
// fields that identify it (hash code, title or name): then the dump's hierarchy is unusable
// and `out` should be dropped. A dump without a hierarchy is an error too.
bool FlattenWindowHierarchy(std::string_view entry, std::vector<Container>* out);

}  // namespace tw::windowmanager
