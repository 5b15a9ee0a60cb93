#include "libs/trace/importers/proto/windowmanager_pruning.h"

#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/importers/proto/proto_writer.h"

namespace tw::windowmanager {
namespace {

// The messages on the way from an entry or container to its own WindowContainerProto(s).
enum class Msg {
  kEntry, kService, kRoot, kChild, kContainer, kDisplayContent, kDisplayArea, kTask,
  kTaskFragment, kActivity, kWindowToken, kWindowState, kCopy,
};

// Which message `field` of `m` is, when it leads to a container's own WindowContainerProto;
// kCopy for everything else (copied as is). Field numbers are the winscope protos' (facts).
Msg Inner(Msg m, uint32_t field) {
  switch (m) {
    case Msg::kEntry: return field == 3 ? Msg::kService : Msg::kCopy;  // window_manager_service
    case Msg::kService: return field == 2 ? Msg::kRoot : Msg::kCopy;   // root_window_container
    case Msg::kRoot: return field == 1 ? Msg::kContainer : Msg::kCopy;  // window_container
    case Msg::kChild:  // WindowContainerChildProto: one of the container kinds
      switch (field) {
        case 2: return Msg::kContainer;
        case 3: return Msg::kDisplayContent;
        case 4: return Msg::kDisplayArea;
        case 5: return Msg::kTask;
        case 6: return Msg::kActivity;
        case 7: return Msg::kWindowToken;
        case 8: return Msg::kWindowState;
        case 9: return Msg::kTaskFragment;
        default: return Msg::kCopy;
      }
    case Msg::kDisplayContent: return field == 21 ? Msg::kDisplayArea : Msg::kCopy;
    case Msg::kTask:
      if (field == 1) return Msg::kContainer;
      return field == 31 ? Msg::kTaskFragment : Msg::kCopy;
    case Msg::kActivity: return field == 2 ? Msg::kWindowToken : Msg::kCopy;
    case Msg::kDisplayArea:
    case Msg::kTaskFragment:
    case Msg::kWindowToken:
    case Msg::kWindowState:
      return field == 1 ? Msg::kContainer : Msg::kCopy;
    case Msg::kContainer:
    case Msg::kCopy:
      return Msg::kCopy;
  }
  return Msg::kCopy;
}

constexpr uint32_t kContainerChildren = 5;  // WindowContainerProto.children

void Prune(std::string_view bytes, Msg m, proto::Writer* out) {
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    if (m == Msg::kContainer && f.id == kContainerChildren) continue;
    switch (f.type) {
      case proto::kVarint: out->Varint(f.id, f.int_value); break;
      case proto::kFixed64: out->Fixed64(f.id, f.int_value); break;
      case proto::kFixed32: out->Fixed32(f.id, static_cast<uint32_t>(f.int_value)); break;
      case proto::kLengthDelimited: {
        const Msg inner = Inner(m, f.id);
        if (inner == Msg::kCopy) {
          out->Bytes(f.id, f.as_string());
        } else {
          proto::Writer nested;
          Prune(f.as_string(), inner, &nested);
          out->Message(f.id, nested);
        }
        break;
      }
      default: break;
    }
  }
}

}  // namespace

std::string PruneChildren(std::string_view bytes, PruneFrom from) {
  const Msg m = from == PruneFrom::kEntry           ? Msg::kEntry
                : from == PruneFrom::kRootContainer ? Msg::kRoot
                                                    : Msg::kChild;
  proto::Writer out;
  Prune(bytes, m, &out);
  return out.Take();
}

}  // namespace tw::windowmanager
