#include "libs/trace/importers/proto/winscope_decoder.h"

#include "libs/trace/importers/proto/base64.h"
#include "libs/trace/importers/proto/descriptor_args.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/schema_pools.h"
#include "libs/trace/importers/proto/viewcapture_geometry.h"
#include "libs/trace/importers/proto/windowmanager_hierarchy.h"
#include "libs/trace/importers/proto/windowmanager_pruning.h"

namespace tw {
namespace {

constexpr std::string_view kPackage = ".tracewise.schema.winscope.";

// Field numbers (wire-format facts of the winscope protos).
namespace extension {  // WinscopeExtensions extensions
constexpr uint32_t kInputMethodClients = 1, kInputMethodService = 2,
                   kInputMethodManagerService = 3, kViewCapture = 4, kWindowManager = 6;
}
namespace entry {  // TransactionTraceEntry
constexpr uint32_t kVsyncId = 2, kTransactions = 3, kAddedLayers = 4, kDestroyedLayers = 5,
                   kAddedDisplays = 6, kRemovedDisplays = 7, kDestroyedLayerHandles = 8;
}
namespace transaction {  // TransactionState
constexpr uint32_t kPid = 1, kUid = 2, kTransactionId = 6, kLayerChanges = 7,
                   kDisplayChanges = 8, kApplyToken = 10, kTransactionBarriers = 11;
}
namespace layer_state { constexpr uint32_t kLayerId = 1, kWhat = 2; }
namespace display_state { constexpr uint32_t kId = 1, kWhat = 2; }
namespace layer_creation { constexpr uint32_t kLayerId = 1; }

// Repeated scalars may come packed or one by one.
void ForEachVarint(const proto::Field& f, const std::function<void(uint64_t)>& fn) {
  if (f.type == proto::kVarint) return fn(f.int_value);
  if (f.type != proto::kLengthDelimited) return;
  proto::PackedVarints it(f);
  uint64_t v;
  while (it.Next(&v)) fn(v);
}

}  // namespace

WinscopeDecoder::WinscopeDecoder(ImportContext* ctx)
    : ctx_(ctx), pool_(WinscopeDescriptors()) {}

std::vector<Arg> WinscopeDecoder::Args(std::string_view type, std::string_view bytes,
                                       std::string_view error_stat,
                                       const std::vector<uint32_t>* allowed_fields) {
  std::vector<Arg> args;
  const ProtoMessageDef* def = pool_.FindMessage(std::string(kPackage) + std::string(type));
  if (!def) return args;
  DescriptorArgsOptions options;
  options.allowed_fields = allowed_fields;
  if (!DescriptorToArgs(pool_, *def, bytes, ctx_->storage, &args, options)) {
    ctx_->storage->IncrementStat(error_stat);
  }
  return args;
}

StringId WinscopeDecoder::Base64(std::string_view bytes) {
  return ctx_->Intern(Base64Encode(bytes));
}

void WinscopeDecoder::Push(const PacketContext& packet, WinscopeData data) {
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kWinscope, std::move(data)));
}

bool WinscopeDecoder::DecodeExtension(const PacketContext& packet, const proto::Field& field) {
  if (field.id == extension::kViewCapture) {
    if (field.type == proto::kLengthDelimited) DecodeViewCapture(packet, field);
    return true;
  }
  if (field.id == extension::kWindowManager) {
    if (field.type == proto::kLengthDelimited) DecodeWindowManager(packet, field);
    return true;
  }
  WinscopeData data;
  std::string_view type, stat;
  switch (field.id) {
    case extension::kInputMethodClients:
      data.kind = WinscopeData::Kind::kInputMethodClients;
      type = "InputMethodClientsTraceProto";
      stat = "winscope_inputmethod_clients_parse_errors";
      break;
    case extension::kInputMethodManagerService:
      data.kind = WinscopeData::Kind::kInputMethodManagerService;
      type = "InputMethodManagerServiceTraceProto";
      stat = "winscope_inputmethod_manager_service_parse_errors";
      break;
    case extension::kInputMethodService:
      data.kind = WinscopeData::Kind::kInputMethodService;
      type = "InputMethodServiceTraceProto";
      stat = "winscope_inputmethod_service_parse_errors";
      break;
    default:
      return false;
  }
  if (field.type != proto::kLengthDelimited) return true;
  data.proto = Base64(field.as_string());
  data.args = Args(type, field.as_string(), stat);
  Push(packet, std::move(data));
  return true;
}

void WinscopeDecoder::DecodeSurfaceFlingerTransactions(const PacketContext& packet,
                                                       const proto::Field& field) {
  constexpr std::string_view kStat = "winscope_sf_transactions_parse_errors";
  const std::string_view bytes = field.as_string();
  WinscopeData data;
  data.kind = WinscopeData::Kind::kSurfaceFlingerTransactions;
  data.proto = Base64(bytes);
  data.args = Args("TransactionTraceEntry", bytes, kStat);
  data.vsync_id = 0;  // a missing vsync_id reads as 0

  std::vector<proto::Field> transactions, added_layers, added_displays;
  std::vector<uint64_t> destroyed_layers, removed_displays, destroyed_handles;
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case entry::kVsyncId: data.vsync_id = f.as_int64(); break;
      case entry::kTransactions: transactions.push_back(f); break;
      case entry::kAddedLayers: added_layers.push_back(f); break;
      case entry::kAddedDisplays: added_displays.push_back(f); break;
      case entry::kDestroyedLayers:
        ForEachVarint(f, [&](uint64_t v) { destroyed_layers.push_back(v); });
        break;
      case entry::kRemovedDisplays:
        ForEachVarint(f, [&](uint64_t v) { removed_displays.push_back(v); });
        break;
      case entry::kDestroyedLayerHandles:
        ForEachVarint(f, [&](uint64_t v) { destroyed_handles.push_back(v); });
        break;
      default: break;
    }
  }

  auto intern = [&](std::string_view s) { return ctx_->Intern(s); };
  // The args of a change, then the transaction's apply token and barriers in the same set.
  const std::vector<uint32_t> kTransactionFields = {transaction::kApplyToken,
                                                    transaction::kTransactionBarriers};
  auto change_args = [&](std::string_view type, std::string_view change_bytes,
                         const std::string_view* transaction_bytes) {
    std::vector<Arg> args = Args(type, change_bytes, kStat);
    if (transaction_bytes) {
      std::vector<Arg> more = Args("TransactionState", *transaction_bytes, kStat,
                                   &kTransactionFields);
      args.insert(args.end(), more.begin(), more.end());
    }
    return args;
  };
  auto display_change = [&](const proto::Field& state, StringId type,
                            const std::string_view* transaction_bytes) {
    WinscopeData::Change c;
    c.type = type;
    c.proto = Base64(state.as_string());
    c.display_what = true;
    c.display_id = 0;
    proto::Decoder sd(state);
    proto::Field x;
    while (sd.Next(&x)) {
      if (x.id == display_state::kId) c.display_id = static_cast<uint32_t>(x.as_int32());
      if (x.id == display_state::kWhat) c.what = x.as_uint32();
    }
    c.args = change_args("DisplayState", state.as_string(), transaction_bytes);
    return c;
  };

  for (const proto::Field& t : transactions) {
    const std::string_view t_bytes = t.as_string();
    uint64_t transaction_id = 0;
    int32_t pid = 0, uid = 0;
    std::vector<proto::Field> layer_changes, display_changes;
    proto::Decoder td(t);
    proto::Field x;
    while (td.Next(&x)) {
      switch (x.id) {
        case transaction::kPid: pid = x.as_int32(); break;
        case transaction::kUid: uid = x.as_int32(); break;
        case transaction::kTransactionId: transaction_id = x.as_uint64(); break;
        case transaction::kLayerChanges: layer_changes.push_back(x); break;
        case transaction::kDisplayChanges: display_changes.push_back(x); break;
        default: break;
      }
    }
    auto with_transaction = [&](WinscopeData::Change c) {
      c.transaction_id = static_cast<int64_t>(transaction_id);
      c.pid = static_cast<uint32_t>(pid);
      c.uid = static_cast<uint32_t>(uid);
      return c;
    };
    if (layer_changes.empty() && display_changes.empty()) {
      WinscopeData::Change c;
      c.type = intern("NOOP");
      data.changes.push_back(with_transaction(std::move(c)));
      continue;
    }
    for (const proto::Field& state : layer_changes) {
      WinscopeData::Change c;
      c.type = intern("LAYER_CHANGED");
      c.proto = Base64(state.as_string());
      c.layer_id = 0;
      proto::Decoder sd(state);
      proto::Field y;
      while (sd.Next(&y)) {
        if (y.id == layer_state::kLayerId) c.layer_id = y.as_uint32();
        if (y.id == layer_state::kWhat) c.what = y.as_uint64();
      }
      c.args = change_args("LayerState", state.as_string(), &t_bytes);
      data.changes.push_back(with_transaction(std::move(c)));
    }
    for (const proto::Field& state : display_changes) {
      data.changes.push_back(
          with_transaction(display_change(state, intern("DISPLAY_CHANGED"), &t_bytes)));
    }
  }
  for (const proto::Field& layer : added_layers) {
    WinscopeData::Change c;
    c.type = intern("LAYER_ADDED");
    c.proto = Base64(layer.as_string());
    c.layer_id = 0;
    proto::Decoder ld(layer);
    proto::Field y;
    while (ld.Next(&y)) {
      if (y.id == layer_creation::kLayerId) c.layer_id = y.as_uint32();
    }
    c.args = change_args("LayerCreationArgs", layer.as_string(), nullptr);
    data.changes.push_back(std::move(c));
  }
  for (uint64_t id : destroyed_layers) {
    WinscopeData::Change c;
    c.type = intern("LAYER_DESTROYED");
    c.layer_id = static_cast<uint32_t>(id);
    data.changes.push_back(std::move(c));
  }
  for (const proto::Field& display : added_displays) {
    data.changes.push_back(display_change(display, intern("DISPLAY_ADDED"), nullptr));
  }
  for (uint64_t id : removed_displays) {
    WinscopeData::Change c;
    c.type = intern("DISPLAY_REMOVED");
    c.display_id = static_cast<uint32_t>(id);
    data.changes.push_back(std::move(c));
  }
  for (uint64_t id : destroyed_handles) {
    WinscopeData::Change c;
    c.type = intern("LAYER_HANDLE_DESTROYED");
    c.layer_id = static_cast<uint32_t>(id);
    data.changes.push_back(std::move(c));
  }
  Push(packet, std::move(data));
}

}  // namespace tw

namespace tw {
namespace {

namespace shell_transition {  // ShellTransition
constexpr uint32_t kId = 1, kCreateTime = 2, kSendTime = 3, kDispatchTime = 4, kMergeTime = 5,
                   kShellAbortTime = 7, kWmAbortTime = 8, kFinishTime = 9,
                   kStartTransactionId = 10, kFinishTransactionId = 11, kHandler = 12,
                   kType = 13, kChanges = 14, kFlags = 16;
}
namespace change {  // ShellTransition.Change
constexpr uint32_t kMode = 1, kLayerId = 2, kWindowId = 3, kFlags = 4, kStartDisplayId = 5,
                   kEndDisplayId = 6, kStartRotation = 7, kEndRotation = 8,
                   kStartAbsoluteBounds = 9, kEndAbsoluteBounds = 10;
}
namespace handler_mapping { constexpr uint32_t kMapping = 1, kId = 1, kName = 2; }

// RectProto (left, top, right, bottom) as a rect of origin and size.
WinscopeData::Rect ReadRect(const proto::Field& f) {
  int32_t left = 0, top = 0, right = 0, bottom = 0;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == 1) left = x.as_int32();
    if (x.id == 2) top = x.as_int32();
    if (x.id == 3) right = x.as_int32();
    if (x.id == 4) bottom = x.as_int32();
  }
  return {static_cast<double>(left), static_cast<double>(top),
          static_cast<double>(right) - left, static_cast<double>(bottom) - top};
}

}  // namespace

void WinscopeDecoder::DecodeShellTransition(const PacketContext& packet,
                                            const proto::Field& field) {
  WinscopeData data;
  data.kind = WinscopeData::Kind::kShellTransition;
  data.proto = Base64(field.as_string());
  data.args = Args("ShellTransition", field.as_string(),
                   "winscope_shell_transitions_parse_errors");
  WinscopeData::Transition& t = data.transition;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case shell_transition::kId: t.id = f.as_int32(); break;
      case shell_transition::kCreateTime: t.create_time = f.as_int64(); break;
      case shell_transition::kSendTime: t.send_time = f.as_int64(); break;
      case shell_transition::kDispatchTime: t.dispatch_time = f.as_int64(); break;
      case shell_transition::kMergeTime: t.merge_time = f.as_int64(); break;
      case shell_transition::kShellAbortTime: t.shell_abort_time = f.as_int64(); break;
      case shell_transition::kWmAbortTime: t.wm_abort_time = f.as_int64(); break;
      case shell_transition::kFinishTime: t.finish_time = f.as_int64(); break;
      case shell_transition::kStartTransactionId:
        t.start_transaction_id = static_cast<int64_t>(f.as_uint64());
        break;
      case shell_transition::kFinishTransactionId:
        t.finish_transaction_id = static_cast<int64_t>(f.as_uint64());
        break;
      case shell_transition::kHandler: t.handler = f.as_int32(); break;
      case shell_transition::kType: t.type = static_cast<uint32_t>(f.as_int32()); break;
      case shell_transition::kFlags: t.flags = static_cast<uint32_t>(f.as_int32()); break;
      case shell_transition::kChanges: {
        if (f.type != proto::kLengthDelimited) break;
        WinscopeData::Participant p;
        proto::Decoder cd(f);
        proto::Field x;
        while (cd.Next(&x)) {
          const uint32_t v = static_cast<uint32_t>(x.as_int32());
          switch (x.id) {
            case change::kMode: p.mode = v; break;
            case change::kLayerId: p.layer_id = v; break;
            case change::kWindowId: p.window_id = v; break;
            case change::kFlags: p.flags = v; break;
            case change::kStartDisplayId: p.start_display_id = v; break;
            case change::kEndDisplayId: p.end_display_id = v; break;
            case change::kStartRotation: p.start_rotation = v; break;
            case change::kEndRotation: p.end_rotation = v; break;
            case change::kStartAbsoluteBounds: p.start_bounds = ReadRect(x); break;
            case change::kEndAbsoluteBounds: p.end_bounds = ReadRect(x); break;
            default: break;
          }
        }
        t.participants.push_back(p);
        break;
      }
      default: break;
    }
  }
  Push(packet, std::move(data));
}

void WinscopeDecoder::DecodeShellHandlerMappings(const PacketContext& packet,
                                                 const proto::Field& field) {
  WinscopeData data;
  data.kind = WinscopeData::Kind::kShellHandlerMappings;
  data.proto = Base64(field.as_string());
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id != handler_mapping::kMapping || f.type != proto::kLengthDelimited) continue;
    int64_t id = 0;
    std::string_view name;
    proto::Decoder md(f);
    proto::Field x;
    while (md.Next(&x)) {
      if (x.id == handler_mapping::kId) id = x.as_int32();
      if (x.id == handler_mapping::kName) name = x.as_string();
    }
    data.handlers.emplace_back(id, ctx_->Intern(name));
  }
  Push(packet, std::move(data));
}

}  // namespace tw

namespace tw {
namespace {

namespace viewcapture {  // ViewCapture, ViewCapture.View
constexpr uint32_t kViews = 3;
constexpr uint32_t kId = 1, kParentId = 2, kHashcode = 3, kLeft = 6, kTop = 7, kWidth = 8,
                   kHeight = 9, kScrollX = 10, kScrollY = 11, kTranslationX = 12,
                   kTranslationY = 13, kScaleX = 14, kScaleY = 15, kAlpha = 16,
                   kVisibility = 19;
}
// InternedData extensions holding ViewCapture's strings.
constexpr uint32_t kInternedPackageName = 38, kInternedWindowName = 39, kInternedViewId = 40,
                   kInternedClassName = 41, kInternedContentDescription = 45,
                   kInternedText = 46;
constexpr std::string_view kDeinternError = "STRING DE-INTERNING ERROR";

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

namespace window_manager {  // WindowManagerTraceEntry, WindowManagerServiceDumpProto
constexpr uint32_t kElapsedRealtimeNanos = 1, kWindowManagerService = 3;
constexpr uint32_t kFocusedDisplayId = 9;
}

}  // namespace

void WinscopeDecoder::DecodeViewCapture(const PacketContext& packet, const proto::Field& field) {
  WinscopeData data;
  data.kind = WinscopeData::Kind::kViewCapture;
  data.proto = Base64(field.as_string());
  const SequenceState* seq = packet.sequence;
  constexpr std::string_view kStat = "winscope_viewcapture_parse_errors";

  // An "<x>_iid" field is shown as "<x>", the string the sequence interned; one the sequence
  // does not have is shown as an error (and its id kept). The strings used are recorded.
  auto hook_for = [&](StringId proto, StringId* class_name, StringId* view_id) {
    return [this, seq, proto, class_name, view_id, &data](
               const std::string& key, const std::string& flat_key, const ArgValue& value,
               std::vector<Arg>* out) {
      if (!EndsWith(key, "_iid") ||
          (value.type != ArgValue::Type::kInt && value.type != ArgValue::Type::kUint)) {
        return false;
      }
      uint32_t field = 0;
      StringId* column = nullptr;
      if (EndsWith(key, "class_name_iid")) {
        field = kInternedClassName;
        column = class_name;
      } else if (EndsWith(key, "package_name_iid")) {
        field = kInternedPackageName;
        column = &data.package_name;
      } else if (EndsWith(key, "view_id_iid")) {
        field = kInternedViewId;
        column = view_id;
      } else if (EndsWith(key, "window_name_iid")) {
        field = kInternedWindowName;
        column = &data.window_name;
      } else if (EndsWith(key, "content_description_iid")) {
        field = kInternedContentDescription;
      } else if (EndsWith(key, "text_iid")) {
        field = kInternedText;
      }
      const std::string k = key.substr(0, key.size() - 4);
      const std::string fk = flat_key.substr(0, flat_key.size() - 4);
      const uint64_t iid = static_cast<uint64_t>(value.int_value);
      std::optional<std::string_view> text;
      if (field && seq) {
        if (const std::string* bytes = seq->Lookup(field, iid)) {
          proto::Decoder d(*bytes);
          proto::Field x;
          while (d.Next(&x)) {
            if (x.id == pf::interned_string::kStr) text = x.as_string();
          }
        }
      }
      if (!text) {
        out->push_back(Arg{ctx_->Intern(fk), ctx_->Intern(k),
                           ArgValue::String(ctx_->Intern(kDeinternError))});
        ctx_->storage->IncrementStat("winscope_viewcapture_missing_interned_string_parse_errors");
        return false;  // the id stays too
      }
      const StringId s = ctx_->Intern(*text);
      out->push_back(Arg{ctx_->Intern(fk), ctx_->Intern(k), ArgValue::String(s)});
      if (column) *column = s;
      data.deinterned.push_back({proto, ctx_->Intern(flat_key), static_cast<int64_t>(iid), s});
      return true;
    };
  };

  const ProtoMessageDef* snapshot_def = pool_.FindMessage(std::string(kPackage) + "ViewCapture");
  const ProtoMessageDef* view_def = pool_.FindMessage(std::string(kPackage) + "ViewCapture.View");
  if (!snapshot_def || !view_def) return;
  {
    const std::vector<uint32_t> allowed = {1, 2};  // package and window name
    DescriptorArgsOptions options;
    options.allowed_fields = &allowed;
    options.scalar_hook = hook_for(data.proto, nullptr, nullptr);
    if (!DescriptorToArgs(pool_, *snapshot_def, field.as_string(), ctx_->storage, &data.args,
                          options)) {
      ctx_->storage->IncrementStat(kStat);
    }
  }

  // Views in drawing order (depth first from the root) decide visibility: a view is visible
  // if it and all its ancestors are VISIBLE (0) and it has an area.
  struct ViewFacts {
    int32_t id = 0, parent = 0, width = 0, height = 0, visibility = 0;
    int32_t left = 0, top = 0, scroll_x = 0, scroll_y = 0;
    float translation_x = 0, translation_y = 0, scale_x = 0, scale_y = 0, alpha = 0;
    uint32_t hashcode = 0;
  };
  std::vector<ViewFacts> facts;
  std::vector<proto::Field> view_fields;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id != viewcapture::kViews || f.type != proto::kLengthDelimited) continue;
    ViewFacts v;
    proto::Decoder vd(f);
    proto::Field x;
    while (vd.Next(&x)) {
      switch (x.id) {
        case viewcapture::kId: v.id = x.as_int32(); break;
        case viewcapture::kParentId: v.parent = x.as_int32(); break;
        case viewcapture::kHashcode: v.hashcode = static_cast<uint32_t>(x.as_int32()); break;
        case viewcapture::kWidth: v.width = x.as_int32(); break;
        case viewcapture::kHeight: v.height = x.as_int32(); break;
        case viewcapture::kVisibility: v.visibility = x.as_int32(); break;
        case viewcapture::kLeft: v.left = x.as_int32(); break;
        case viewcapture::kTop: v.top = x.as_int32(); break;
        case viewcapture::kScrollX: v.scroll_x = x.as_int32(); break;
        case viewcapture::kScrollY: v.scroll_y = x.as_int32(); break;
        case viewcapture::kTranslationX: v.translation_x = x.as_float(); break;
        case viewcapture::kTranslationY: v.translation_y = x.as_float(); break;
        case viewcapture::kScaleX: v.scale_x = x.as_float(); break;
        case viewcapture::kScaleY: v.scale_y = x.as_float(); break;
        case viewcapture::kAlpha: v.alpha = x.as_float(); break;
        default: break;
      }
    }
    facts.push_back(v);
    view_fields.push_back(f);
  }
  absl::flat_hash_map<int32_t, bool> visible;
  std::vector<size_t> drawing_order;  // views reachable from the root, parents first
  {
    absl::flat_hash_map<int32_t, std::vector<size_t>> children;
    absl::flat_hash_map<int32_t, size_t> by_id;
    int32_t root = 0;
    for (size_t i = 0; i < facts.size(); ++i) {
      if (facts[i].parent == -1) {
        root = facts[i].id;
      } else {
        children[facts[i].parent].push_back(i);
      }
      by_id.emplace(facts[i].id, i);
    }
    absl::flat_hash_map<int32_t, bool> flag_set;  // VISIBLE here and in every ancestor
    std::vector<size_t> stack;
    if (auto it = by_id.find(root); it != by_id.end()) stack.push_back(it->second);
    while (!stack.empty()) {
      const size_t stack_top = stack.back();
      const ViewFacts& v = facts[stack_top];
      stack.pop_back();
      bool set = v.visibility == 0;
      if (auto p = flag_set.find(v.parent); set && p != flag_set.end()) set = p->second;
      flag_set[v.id] = set;
      visible[v.id] = set && v.width > 0 && v.height > 0;
      drawing_order.push_back(stack_top);
      auto c = children.find(v.id);
      if (c == children.end()) continue;
      for (auto it = c->second.rbegin(); it != c->second.rend(); ++it) {
        if (by_id[facts[*it].id] == *it) stack.push_back(*it);
      }
    }
  }

  // Where each view reachable from the root is drawn.
  std::vector<ViewGeometry> geometry;
  geometry.reserve(drawing_order.size());
  for (size_t i : drawing_order) {
    const ViewFacts& v = facts[i];
    geometry.push_back({v.id, v.parent, v.left, v.top, v.width, v.height, v.scroll_x,
                        v.scroll_y, v.translation_x, v.translation_y, v.scale_x, v.scale_y});
  }
  const std::vector<ViewPlacement> placements = PlaceViews(geometry);
  absl::flat_hash_map<size_t, size_t> placement_of;  // view index → placement index
  for (size_t k = 0; k < drawing_order.size(); ++k) placement_of.emplace(drawing_order[k], k);

  for (size_t i = 0; i < view_fields.size(); ++i) {
    WinscopeData::View view;
    view.proto = Base64(view_fields[i].as_string());
    view.node_id = static_cast<uint32_t>(facts[i].id);
    view.hashcode = facts[i].hashcode;
    view.parent_id = static_cast<uint32_t>(facts[i].parent);
    auto v = visible.find(facts[i].id);
    view.is_visible = v != visible.end() && v->second;
    if (auto pl = placement_of.find(i); pl != placement_of.end()) {
      const ViewPlacement& placed = placements[pl->second];
      view.bounds = WinscopeData::Rect{placed.x, placed.y, placed.w, placed.h};
      view.depth = placed.depth;
      view.alpha = static_cast<double>(facts[i].alpha);
    }
    DescriptorArgsOptions options;
    options.scalar_hook = hook_for(view.proto, &view.class_name, &view.view_id);
    if (!DescriptorToArgs(pool_, *view_def, view_fields[i].as_string(), ctx_->storage, &view.args,
                          options)) {
      ctx_->storage->IncrementStat(kStat);
    }
    data.views.push_back(std::move(view));
  }
  Push(packet, std::move(data));
}

void WinscopeDecoder::DecodeWindowManager(const PacketContext& packet,
                                          const proto::Field& field) {
  constexpr std::string_view kStat = "winscope_windowmanager_parse_errors";
  const std::string_view bytes = field.as_string();
  WinscopeData data;
  data.kind = WinscopeData::Kind::kWindowManager;
  int64_t elapsed = 0;
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == window_manager::kElapsedRealtimeNanos) elapsed = f.as_int64();
    if (f.id == window_manager::kWindowManagerService && f.type == proto::kLengthDelimited) {
      proto::Decoder sd(f);
      proto::Field x;
      while (sd.Next(&x)) {
        if (x.id == window_manager::kFocusedDisplayId) {
          data.focused_display_id = static_cast<uint32_t>(x.as_int32());
        }
      }
    }
  }
  data.has_invalid_elapsed_ts = elapsed == 0;
  // The dump's own state: everything but the window hierarchy, which gets a row per container.
  const std::string pruned_entry =
      windowmanager::PruneChildren(bytes, windowmanager::PruneFrom::kEntry);
  data.proto = Base64(pruned_entry);
  data.args = Args("WindowManagerTraceEntry", pruned_entry, kStat);

  std::vector<windowmanager::Container> containers;
  if (!windowmanager::FlattenWindowHierarchy(bytes, &containers)) {
    ctx_->storage->IncrementStat(kStat);
    containers.clear();
  }
  for (const windowmanager::Container& c : containers) {
    const bool root = !c.parent_token;
    const std::string pruned = windowmanager::PruneChildren(
        c.bytes, root ? windowmanager::PruneFrom::kRootContainer
                      : windowmanager::PruneFrom::kContainerChild);
    WinscopeData::WmContainer row;
    row.proto = Base64(pruned);
    row.args = Args(root ? "RootWindowContainerProto" : "WindowContainerChildProto", pruned, kStat);
    row.title = ctx_->Intern(c.title);
    row.type = ctx_->Intern(c.type);
    if (c.name_override) row.name_override = ctx_->Intern(*c.name_override);
    row.token = c.token;
    row.parent_token = c.parent_token;
    row.child_index = c.child_index;
    row.is_visible = c.is_visible;
    if (c.rect) {
      WinscopeData::TraceRect t;
      t.rect = {static_cast<double>(c.rect->x), static_cast<double>(c.rect->y),
                static_cast<double>(c.rect->w), static_cast<double>(c.rect->h)};
      t.group_id = static_cast<uint32_t>(c.rect->display_id);
      t.depth = c.rect->depth;
      t.is_visible = c.rect->is_visible;
      t.opacity = c.rect->opacity;
      t.transform = WinscopeData::Transform{};  // window frames are in display space
      row.rect = std::move(t);
    }
    data.wm_containers.push_back(std::move(row));
  }
  Push(packet, std::move(data));
}

}  // namespace tw
