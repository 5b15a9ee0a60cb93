#include "libs/trace/importers/proto/windowmanager_hierarchy.h"

#include <cstdio>

#include "libs/trace/importers/proto/proto_decoder.h"

namespace tw::windowmanager {
namespace {

// Field numbers (wire-format facts of windowmanager.proto and windowmanagerservice.proto).
namespace entry { constexpr uint32_t kService = 3; }              // WindowManagerTraceEntry
namespace service { constexpr uint32_t kRootWindowContainer = 2; }  // ...ServiceDumpProto
namespace root { constexpr uint32_t kWindowContainer = 1; }       // RootWindowContainerProto
namespace container {  // WindowContainerProto
constexpr uint32_t kVisible = 3, kChildren = 5, kIdentifier = 6;
}
namespace child {  // WindowContainerChildProto
constexpr uint32_t kWindowContainer = 2, kDisplayContent = 3, kDisplayArea = 4, kTask = 5,
                   kActivity = 6, kWindowToken = 7, kWindow = 8, kTaskFragment = 9;
}
namespace identifier { constexpr uint32_t kHashCode = 1, kTitle = 3; }  // IdentifierProto
namespace display_content {  // DisplayContentProto
constexpr uint32_t kId = 2, kDisplayInfo = 10, kRootDisplayArea = 21;
}
namespace display_info { constexpr uint32_t kLogicalWidth = 1, kLogicalHeight = 2, kName = 5; }
namespace display_area { constexpr uint32_t kWindowContainer = 1, kName = 2; }
namespace task {  // TaskProto
constexpr uint32_t kWindowContainer = 1, kId = 2, kTaskFragment = 31, kTaskName = 32;
}
namespace task_fragment { constexpr uint32_t kWindowContainer = 1; }
namespace activity { constexpr uint32_t kName = 1, kWindowToken = 2, kVisible = 24; }
namespace window_token { constexpr uint32_t kWindowContainer = 1, kHashCode = 2; }
namespace window_state {  // WindowStateProto
constexpr uint32_t kWindowContainer = 1, kAttributes = 5, kIsVisible = 38, kWindowFrames = 41;
}
namespace layout_params { constexpr uint32_t kAlpha = 12; }  // WindowLayoutParamsProto
namespace window_frames { constexpr uint32_t kFrame = 5; }   // WindowFramesProto

// The first length-delimited field `id` of a message (empty when absent).
std::optional<std::string_view> Sub(std::string_view bytes, uint32_t id) {
  proto::Decoder d(bytes);
  proto::Field f;
  std::optional<std::string_view> found;
  while (d.Next(&f)) {
    if (f.id == id && f.type == proto::kLengthDelimited) found = f.as_string();
  }
  return found;
}

std::optional<int64_t> Scalar(std::string_view bytes, uint32_t id) {
  proto::Decoder d(bytes);
  proto::Field f;
  std::optional<int64_t> found;
  while (d.Next(&f)) {
    if (f.id == id && f.type != proto::kLengthDelimited) found = f.as_int64();
  }
  return found;
}

struct WindowContainerFacts {
  bool visible = false;
  std::optional<int32_t> hash_code;
  std::optional<std::string_view> title;
  std::vector<std::string_view> children;
};

WindowContainerFacts ReadContainer(std::string_view bytes) {
  WindowContainerFacts c;
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == container::kVisible) c.visible = f.as_bool();
    if (f.type != proto::kLengthDelimited) continue;
    if (f.id == container::kChildren) c.children.push_back(f.as_string());
    if (f.id == container::kIdentifier) {
      if (auto h = Scalar(f.as_string(), identifier::kHashCode)) {
        c.hash_code = static_cast<int32_t>(*h);
      }
      c.title = Sub(f.as_string(), identifier::kTitle);
    }
  }
  return c;
}

class Walker {
 public:
  explicit Walker(std::vector<Container>* out) : out_(out) {}

  bool Root(std::string_view root_bytes) {
    const std::optional<std::string_view> wc = Sub(root_bytes, root::kWindowContainer);
    if (!wc) return false;
    const WindowContainerFacts c = ReadContainer(*wc);
    if (!c.hash_code || !c.title) return false;
    Container row;
    row.type = "RootWindowContainer";
    row.title = std::string(*c.title);
    row.token = *c.hash_code;
    row.is_visible = c.visible;
    row.bytes = root_bytes;
    out_->push_back(std::move(row));
    return Children(c.children, *c.hash_code);
  }

 private:
  // Every child is walked even after one fails, but any failure fails the dump.
  bool Children(const std::vector<std::string_view>& children, int32_t parent) {
    bool ok = true;
    for (uint32_t i = 0; i < children.size(); ++i) ok &= Child(children[i], parent, i);
    return ok;
  }

  Container Row(std::string_view type, std::string_view bytes, int32_t parent, uint32_t index) {
    Container row;
    row.type = type;
    row.bytes = bytes;
    row.parent_token = parent;
    row.child_index = index;
    return row;
  }

  // A container identified by its WindowContainerProto's identifier.
  bool Identified(Container row, std::string_view wc_bytes) {
    const WindowContainerFacts c = ReadContainer(wc_bytes);
    if (!c.hash_code || !c.title) return false;
    row.title = std::string(*c.title);
    row.token = *c.hash_code;
    row.is_visible = c.visible;
    out_->push_back(std::move(row));
    return Children(c.children, *c.hash_code);
  }

  bool Child(std::string_view bytes, int32_t parent, uint32_t index) {
    proto::Decoder d(bytes);
    proto::Field f;
    std::optional<std::string_view> kinds[10];
    while (d.Next(&f)) {
      if (f.type == proto::kLengthDelimited && f.id >= child::kWindowContainer &&
          f.id <= child::kTaskFragment) {
        kinds[f.id] = f.as_string();
      }
    }
    // The first kind present, in the order of the oneof's fields.
    if (kinds[child::kWindowContainer]) {
      return Identified(Row("WindowContainer", bytes, parent, index),
                        *kinds[child::kWindowContainer]);
    }
    if (kinds[child::kDisplayContent]) {
      return DisplayContent(*kinds[child::kDisplayContent], bytes, parent, index);
    }
    if (kinds[child::kDisplayArea]) {
      return DisplayArea(*kinds[child::kDisplayArea], bytes, parent, index);
    }
    if (kinds[child::kTask]) return Task(*kinds[child::kTask], bytes, parent, index);
    if (kinds[child::kActivity]) return Activity(*kinds[child::kActivity], bytes, parent, index);
    if (kinds[child::kWindowToken]) {
      return WindowToken(*kinds[child::kWindowToken], bytes, parent, index);
    }
    if (kinds[child::kWindow]) return Window(*kinds[child::kWindow], bytes, parent, index);
    if (kinds[child::kTaskFragment]) {
      const std::string_view wc =
          Sub(*kinds[child::kTaskFragment], task_fragment::kWindowContainer).value_or("");
      return Identified(Row("TaskFragment", bytes, parent, index), wc);
    }
    return false;
  }

  bool DisplayContent(std::string_view dc, std::string_view bytes, int32_t parent,
                      uint32_t index) {
    const std::string_view area = Sub(dc, display_content::kRootDisplayArea).value_or("");
    const std::string_view info = Sub(dc, display_content::kDisplayInfo).value_or("");
    const WindowContainerFacts c =
        ReadContainer(Sub(area, display_area::kWindowContainer).value_or(""));
    const std::optional<std::string_view> name = Sub(info, display_info::kName);
    if (!c.hash_code || !name) return false;
    const int32_t id = static_cast<int32_t>(Scalar(dc, display_content::kId).value_or(0));
    Container row = Row("DisplayContent", bytes, parent, index);
    row.title = std::string(*name);
    row.token = *c.hash_code;
    row.is_visible = c.visible;
    ContainerRect rect;
    rect.w = static_cast<int32_t>(Scalar(info, display_info::kLogicalWidth).value_or(0));
    rect.h = static_cast<int32_t>(Scalar(info, display_info::kLogicalHeight).value_or(0));
    rect.display_id = id;
    row.rect = rect;
    out_->push_back(std::move(row));
    // Windows below stack up from depth 1 within this display.
    display_id_ = id;
    window_depth_ = 1;
    return Children(c.children, *c.hash_code);
  }

  bool DisplayArea(std::string_view da, std::string_view bytes, int32_t parent, uint32_t index) {
    const WindowContainerFacts c =
        ReadContainer(Sub(da, display_area::kWindowContainer).value_or(""));
    const std::optional<std::string_view> name = Sub(da, display_area::kName);
    if (!c.hash_code || !name) return false;
    Container row = Row("DisplayArea", bytes, parent, index);
    row.title = std::string(*name);
    row.token = *c.hash_code;
    row.is_visible = c.visible;
    out_->push_back(std::move(row));
    return Children(c.children, *c.hash_code);
  }

  bool Task(std::string_view t, std::string_view bytes, int32_t parent, uint32_t index) {
    // A task that is also a task fragment keeps its identity and children in the fragment's
    // container.
    const std::string_view own = Sub(t, task::kWindowContainer).value_or("");
    const std::optional<std::string_view> fragment = Sub(t, task::kTaskFragment);
    const std::optional<std::string_view> fragment_wc =
        fragment ? Sub(*fragment, task_fragment::kWindowContainer) : std::nullopt;
    const WindowContainerFacts c = ReadContainer(fragment_wc ? *fragment_wc : own);
    if (!c.hash_code || !c.title) return false;
    Container row = Row("Task", bytes, parent, index);
    row.title = std::string(*c.title);
    row.token = *c.hash_code;
    row.is_visible = c.visible;
    if (auto id = Scalar(t, task::kId)) {
      std::string name = std::to_string(static_cast<int32_t>(*id));
      if (auto task_name = Sub(t, task::kTaskName); task_name && !task_name->empty()) {
        name += "(" + std::string(*task_name) + ")";
      }
      row.name_override = std::move(name);
    }
    out_->push_back(std::move(row));
    const WindowContainerFacts fragment_facts = ReadContainer(fragment_wc.value_or(""));
    const std::vector<std::string_view>& children =
        !fragment_facts.children.empty() ? fragment_facts.children : ReadContainer(own).children;
    return Children(children, *c.hash_code);
  }

  bool Activity(std::string_view a, std::string_view bytes, int32_t parent, uint32_t index) {
    const std::string_view token_bytes = Sub(a, activity::kWindowToken).value_or("");
    const std::optional<int64_t> hash = Scalar(token_bytes, window_token::kHashCode);
    const std::optional<std::string_view> name = Sub(a, activity::kName);
    if (!hash || !name) return false;
    Container row = Row("Activity", bytes, parent, index);
    row.title = std::string(*name);
    row.token = static_cast<int32_t>(*hash);
    row.is_visible = Scalar(a, activity::kVisible).value_or(0) != 0;
    out_->push_back(std::move(row));
    const WindowContainerFacts c =
        ReadContainer(Sub(token_bytes, window_token::kWindowContainer).value_or(""));
    return Children(c.children, static_cast<int32_t>(*hash));
  }

  bool WindowToken(std::string_view wt, std::string_view bytes, int32_t parent,
                   uint32_t index) {
    const std::optional<int64_t> hash = Scalar(wt, window_token::kHashCode);
    if (!hash) return false;
    const int32_t token = static_cast<int32_t>(*hash);
    const WindowContainerFacts c =
        ReadContainer(Sub(wt, window_token::kWindowContainer).value_or(""));
    Container row = Row("WindowToken", bytes, parent, index);
    char hex[16];
    std::snprintf(hex, sizeof(hex), "0x%02x", static_cast<uint32_t>(token));
    row.title = hex;  // a token has no title of its own: its hash code names it
    row.token = token;
    row.is_visible = c.visible;
    out_->push_back(std::move(row));
    return Children(c.children, token);
  }

  bool Window(std::string_view ws, std::string_view bytes, int32_t parent, uint32_t index) {
    const WindowContainerFacts c =
        ReadContainer(Sub(ws, window_state::kWindowContainer).value_or(""));
    if (!c.hash_code || !c.title) return false;
    Container row = Row("WindowState", bytes, parent, index);
    row.title = std::string(*c.title);
    row.token = *c.hash_code;
    const bool visible = Scalar(ws, window_state::kIsVisible).value_or(0) != 0;
    row.is_visible = visible;
    // The window's frame, from its frames (left, top, right, bottom).
    const std::string_view frame =
        Sub(Sub(ws, window_state::kWindowFrames).value_or(""), window_frames::kFrame)
            .value_or("");
    int32_t edges[4] = {0, 0, 0, 0};
    for (uint32_t e = 0; e < 4; ++e) {
      edges[e] = static_cast<int32_t>(Scalar(frame, e + 1).value_or(0));
    }
    ContainerRect rect;
    rect.x = edges[0];
    rect.y = edges[1];
    rect.w = edges[2] - edges[0];
    rect.h = edges[3] - edges[1];
    rect.display_id = display_id_;
    rect.depth = window_depth_++;
    rect.is_visible = visible;
    // The window's alpha (0 when its layout params do not say).
    float alpha = 0;
    proto::Decoder ad(Sub(ws, window_state::kAttributes).value_or(""));
    proto::Field f;
    while (ad.Next(&f)) {
      if (f.id == layout_params::kAlpha && f.type == proto::kFixed32) alpha = f.as_float();
    }
    rect.opacity = alpha;
    row.rect = rect;
    // Starting and debugger-wait windows are named after the app they stand for.
    for (std::string_view prefix : {std::string_view("Starting "),
                                    std::string_view("Waiting For Debugger: ")}) {
      if (c.title->substr(0, prefix.size()) == prefix) {
        row.name_override = std::string(c.title->substr(prefix.size()));
        break;
      }
    }
    out_->push_back(std::move(row));
    return Children(c.children, *c.hash_code);
  }

  std::vector<Container>* out_;
  int32_t display_id_ = -1;
  uint32_t window_depth_ = 0;
};

}  // namespace

bool FlattenWindowHierarchy(std::string_view entry_bytes, std::vector<Container>* out) {
  const std::string_view service_bytes = Sub(entry_bytes, entry::kService).value_or("");
  const std::optional<std::string_view> root = Sub(service_bytes, service::kRootWindowContainer);
  return Walker(out).Root(root.value_or(""));
}

}  // namespace tw::windowmanager
