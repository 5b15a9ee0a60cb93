#include "libs/trace/trackers/winscope_tracker.h"

#include <string_view>

#include "libs/trace/trackers/arg_merge.h"

namespace tw {
namespace {

struct Flag {
  uint32_t bit;
  std::string_view name;
};

// LayerState.ChangesLsb, in the order trace_processor lists them (eShadowRadiusChanged
// twice, as it does).
constexpr Flag kLayerFlagsLow[] = {
    {0x00000001, "ePositionChanged"},
    {0x00000002, "eLayerChanged"},
    {0x00000008, "eAlphaChanged"},
    {0x00000010, "eMatrixChanged"},
    {0x00000020, "eTransparentRegionChanged"},
    {0x00000040, "eFlagsChanged"},
    {0x00000080, "eLayerStackChanged"},
    {0x00000400, "eReleaseBufferListenerChanged"},
    {0x00000800, "eShadowRadiusChanged"},
    {0x00000800, "eShadowRadiusChanged"},
    {0x00002000, "eBufferCropChanged"},
    {0x00004000, "eRelativeLayerChanged"},
    {0x00008000, "eReparent"},
    {0x00010000, "eColorChanged"},
    {0x00040000, "eBufferTransformChanged"},
    {0x00080000, "eTransformToDisplayInverseChanged"},
    {0x00100000, "eCropChanged"},
    {0x00200000, "eBufferChanged"},
    {0x00400000, "eAcquireFenceChanged"},
    {0x00800000, "eDataspaceChanged"},
    {0x01000000, "eHdrMetadataChanged"},
    {0x02000000, "eSurfaceDamageRegionChanged"},
    {0x04000000, "eApiChanged"},
    {0x08000000, "eSidebandStreamChanged"},
    {0x10000000, "eColorTransformChanged"},
    {0x20000000, "eHasListenerCallbacksChanged"},
    {0x40000000, "eInputInfoChanged"},
    {0x80000000, "eCornerRadiusChanged"},
};

// LayerState.ChangesMsb (the upper 32 bits of `what`).
constexpr Flag kLayerFlagsHigh[] = {
    {0x1, "eDestinationFrameChanged"},        {0x2, "eCachedBufferChanged"},
    {0x4, "eBackgroundColorChanged"},         {0x8, "eMetadataChanged"},
    {0x10, "eColorSpaceAgnosticChanged"},     {0x20, "eFrameRateSelectionPriority"},
    {0x40, "eFrameRateChanged"},              {0x80, "eBackgroundBlurRadiusChanged"},
    {0x100, "eProducerDisconnect"},           {0x200, "eFixedTransformHintChanged"},
    {0x400, "eFrameNumberChanged"},           {0x800, "eBlurRegionsChanged"},
    {0x1000, "eAutoRefreshChanged"},          {0x2000, "eStretchChanged"},
    {0x4000, "eTrustedOverlayChanged"},       {0x8000, "eDropInputModeChanged"},
};

// DisplayState.Changes.
constexpr Flag kDisplayFlags[] = {
    {0x01, "eSurfaceChanged"},           {0x02, "eLayerStackChanged"},
    {0x04, "eDisplayProjectionChanged"}, {0x08, "eDisplaySizeChanged"},
    {0x10, "eFlagsChanged"},
};

}  // namespace

void WinscopeTracker::OnEvent(int64_t ts, const WinscopeData& e) {
  TraceStorage* s = ctx_->storage;
  const std::optional<uint32_t> args = ctx_->args.AddArgSet(e.args);
  switch (e.kind) {
    case WinscopeData::Kind::kInputMethodClients:
      s->inputmethod_clients.Insert({.ts = ts, .arg_set_id = args, .base64_proto_id = e.proto});
      return;
    case WinscopeData::Kind::kInputMethodManagerService:
      s->inputmethod_manager_service.Insert(
          {.ts = ts, .arg_set_id = args, .base64_proto_id = e.proto});
      return;
    case WinscopeData::Kind::kInputMethodService:
      s->inputmethod_service.Insert({.ts = ts, .arg_set_id = args, .base64_proto_id = e.proto});
      return;
    case WinscopeData::Kind::kSurfaceFlingerTransactions:
      return SurfaceFlingerTransactions(ts, e);
    case WinscopeData::Kind::kShellTransition:
      return ShellTransition(e);
    case WinscopeData::Kind::kShellHandlerMappings:
      return ShellHandlers(e);
    case WinscopeData::Kind::kViewCapture:
      return ViewCapture(ts, e);
    case WinscopeData::Kind::kSurfaceFlingerLayers:
      return SurfaceFlingerLayers(ts, e);
    case WinscopeData::Kind::kWindowManager: {
      const uint32_t snapshot =
          s->windowmanager.Insert({.ts = ts,
                                   .arg_set_id = args,
                                   .base64_proto_id = e.proto,
                                   .focused_display_id = e.focused_display_id,
                                   .has_invalid_elapsed_ts = e.has_invalid_elapsed_ts ? 1 : 0});
      for (const WinscopeData::WmContainer& c : e.wm_containers) {
        std::optional<uint32_t> rect;
        if (c.rect) rect = AddTraceRect(*c.rect);
        s->windowmanager_windowcontainer.Insert({.snapshot_id = snapshot,
                                                 .arg_set_id = ctx_->args.AddArgSet(c.args),
                                                 .base64_proto_id = c.proto,
                                                 .title = c.title,
                                                 .token = c.token,
                                                 .parent_token = c.parent_token,
                                                 .child_index = c.child_index,
                                                 .is_visible = c.is_visible ? 1u : 0u,
                                                 .window_rect_id = rect,
                                                 .container_type = c.type,
                                                 .name_override = c.name_override});
      }
      return;
    }
  }
}

void WinscopeTracker::ViewCapture(int64_t ts, const WinscopeData& e) {
  TraceStorage* s = ctx_->storage;
  const uint32_t snapshot = s->viewcapture.Insert({.ts = ts,
                                                   .arg_set_id = ctx_->args.AddArgSet(e.args),
                                                   .base64_proto_id = e.proto,
                                                   .package_name = e.package_name,
                                                   .window_name = e.window_name});
  for (const WinscopeData::View& v : e.views) {
    std::optional<uint32_t> trace_rect;
    if (v.bounds) {
      // Views are drawn in one group; depth is magnified 4x to separate the tree's levels.
      trace_rect = s->winscope_trace_rect.Insert({.rect_id = RectId(*v.bounds),
                                                  .group_id = 0,
                                                  .depth = v.depth * 4,
                                                  .is_spy = 0,
                                                  .is_visible = v.is_visible ? 1 : 0,
                                                  .opacity = v.alpha});
    }
    s->viewcapture_view.Insert({.snapshot_id = snapshot,
                                .arg_set_id = ctx_->args.AddArgSet(v.args),
                                .base64_proto_id = v.proto,
                                .node_id = v.node_id,
                                .hashcode = v.hashcode,
                                .is_visible = v.is_visible ? 1 : 0,
                                .parent_id = v.parent_id,
                                .view_id = v.view_id,
                                .class_name = v.class_name,
                                .trace_rect_id = trace_rect});
  }
  for (const WinscopeData::Deinterned& d : e.deinterned) {
    s->viewcapture_interned_data.Insert({.base64_proto_id = d.proto,
                                         .flat_key = d.flat_key,
                                         .iid = d.iid,
                                         .deinterned_value = d.value});
  }
}

uint32_t WinscopeTracker::RectId(const WinscopeData::Rect& r) {
  auto [it, added] = rects_.try_emplace(std::make_tuple(r.x, r.y, r.w, r.h), 0);
  if (added) {
    it->second = ctx_->storage->winscope_rect.Insert({.x = r.x, .y = r.y, .w = r.w, .h = r.h});
  }
  return it->second;
}

uint32_t WinscopeTracker::TransformId(const WinscopeData::Transform& t) {
  auto [it, added] =
      transforms_.try_emplace(std::make_tuple(t.dsdx, t.dtdx, t.tx, t.dtdy, t.dsdy, t.ty), 0);
  if (added) {
    it->second = ctx_->storage->winscope_transform.Insert(
        {.dsdx = t.dsdx, .dtdx = t.dtdx, .tx = t.tx, .dtdy = t.dtdy, .dsdy = t.dsdy, .ty = t.ty});
  }
  return it->second;
}

uint32_t WinscopeTracker::AddTraceRect(const WinscopeData::TraceRect& t) {
  TraceStorage* s = ctx_->storage;
  const uint32_t rect = RectId(t.rect);
  std::optional<uint32_t> transform;
  if (t.transform) transform = TransformId(*t.transform);
  const uint32_t id = s->winscope_trace_rect.Insert({.rect_id = rect,
                                                     .group_id = t.group_id,
                                                     .depth = t.depth,
                                                     .is_spy = t.is_spy ? 1 : 0,
                                                     .is_visible = t.is_visible ? 1 : 0,
                                                     .opacity = t.opacity,
                                                     .transform_id = transform,
                                                     .border_width = t.border_width,
                                                     .border_color = t.border_color});
  if (t.fill_region) {
    for (const WinscopeData::Rect& r : *t.fill_region) {
      s->winscope_fill_region.Insert({.trace_rect_id = id, .rect_id = RectId(r)});
    }
  }
  return id;
}

void WinscopeTracker::SurfaceFlingerLayers(int64_t ts, const WinscopeData& e) {
  if (!e.sf_snapshot) return;
  const WinscopeData::SfSnapshot& sf = *e.sf_snapshot;
  TraceStorage* s = ctx_->storage;
  const uint32_t snapshot = s->surfaceflinger_layers_snapshot.Insert(
      {.ts = ts,
       .arg_set_id = ctx_->args.AddArgSet(e.args),
       .base64_proto_id = e.proto,
       .sequence_id = sf.sequence_id,
       .has_invalid_elapsed_ts = e.has_invalid_elapsed_ts ? 1u : 0u});
  // Rows in trace_processor's order: displays, then the layers' computed rects, then layers.
  for (const WinscopeData::SfDisplay& d : sf.displays) {
    const uint32_t rect = AddTraceRect(d.rect);
    s->surfaceflinger_display.Insert({.snapshot_id = snapshot,
                                      .is_on = d.is_on ? 1 : 0,
                                      .is_virtual = d.is_virtual ? 1 : 0,
                                      .trace_rect_id = rect,
                                      .display_id = d.display_id,
                                      .display_name = d.name});
  }
  std::vector<uint32_t> rect_ids;
  rect_ids.reserve(sf.layer_rects.size());
  for (const WinscopeData::TraceRect& t : sf.layer_rects) rect_ids.push_back(AddTraceRect(t));
  auto rect_of = [&](const std::optional<size_t>& index) -> std::optional<uint32_t> {
    if (!index || *index >= rect_ids.size()) return std::nullopt;
    return rect_ids[*index];
  };
  for (const WinscopeData::SfLayer& l : sf.layers) {
    s->surfaceflinger_layer.Insert({.snapshot_id = snapshot,
                                    .arg_set_id = ctx_->args.AddArgSet(l.args),
                                    .base64_proto_id = l.proto,
                                    .layer_id = l.layer_id,
                                    .layer_name = l.name,
                                    .is_visible = l.is_visible ? 1 : 0,
                                    .parent = l.parent,
                                    .corner_radius_tl = l.corner_radius_tl,
                                    .corner_radius_tr = l.corner_radius_tr,
                                    .corner_radius_bl = l.corner_radius_bl,
                                    .corner_radius_br = l.corner_radius_br,
                                    .hwc_composition_type = l.hwc_composition_type,
                                    .is_hidden_by_policy = l.is_hidden_by_policy ? 1 : 0,
                                    .z_order_relative_of = l.z_order_relative_of,
                                    .is_missing_z_parent = l.is_missing_z_parent ? 1 : 0,
                                    .layer_rect_id = rect_of(l.layer_rect),
                                    .input_rect_id = rect_of(l.input_rect)});
  }
}

void WinscopeTracker::ShellTransition(const WinscopeData& e) {
  TraceStorage* s = ctx_->storage;
  const WinscopeData::Transition& t = e.transition;
  s->window_manager_shell_transition_protos.Insert(
      {.transition_id = t.id, .base64_proto_id = e.proto});

  ShellTransitionsTable& table = s->window_manager_shell_transitions;
  auto [it, added] = transitions_.try_emplace(t.id);
  TransitionState& state = it->second;
  if (added) state.row = table.Insert({.ts = 0, .transition_id = t.id});
  const uint32_t row = state.row;
  ArgSetBuilder args(std::move(state.args));
  args.Merge(e.args);
  state.args = std::move(args).Take();  // stored at the end, once every packet is in

  if (t.type) table.transition_type.Set(row, *t.type);
  if (t.send_time) {
    table.send_time_ns.Set(row, *t.send_time);
    table.ts.Set(row, *t.send_time);
  }
  if (t.dispatch_time) {
    table.dispatch_time_ns.Set(row, *t.dispatch_time);
    if (table.ts[row] == 0) table.ts.Set(row, *t.dispatch_time);
  }
  if (t.shell_abort_time) table.shell_abort_time_ns.Set(row, *t.shell_abort_time);
  if (t.wm_abort_time) table.wm_abort_time_ns.Set(row, *t.wm_abort_time);
  if (t.finish_time) table.finish_time_ns.Set(row, *t.finish_time);
  if (t.handler) table.handler.Set(row, *t.handler);
  if (t.merge_time) table.merge_time_ns.Set(row, *t.merge_time);
  if (t.create_time) table.create_time_ns.Set(row, *t.create_time);
  if (t.flags) table.flags.Set(row, *t.flags);
  if (t.start_transaction_id) table.start_transaction_id.Set(row, *t.start_transaction_id);
  if (t.finish_transaction_id) table.finish_transaction_id.Set(row, *t.finish_transaction_id);

  for (const WinscopeData::Participant& p : t.participants) {
    s->window_manager_shell_transition_participants.Insert(
        {.transition_id = t.id,
         .layer_id = p.layer_id,
         .window_id = p.window_id,
         .mode = p.mode,
         .flags = p.flags,
         .start_display_id = p.start_display_id,
         .end_display_id = p.end_display_id,
         .start_rotation = p.start_rotation,
         .end_rotation = p.end_rotation,
         .start_abs_bounds_rect_id =
             p.start_bounds ? std::optional<uint32_t>(RectId(*p.start_bounds)) : std::nullopt,
         .end_abs_bounds_rect_id =
             p.end_bounds ? std::optional<uint32_t>(RectId(*p.end_bounds)) : std::nullopt});
  }
}

void WinscopeTracker::ShellHandlers(const WinscopeData& e) {
  ShellTransitionHandlersTable& handlers = ctx_->storage->window_manager_shell_transition_handlers;
  for (const auto& [id, name] : e.handlers) {
    handlers.Insert({.handler_id = id, .handler_name = name, .base64_proto_id = e.proto});
  }
}

void WinscopeTracker::Finish() {
  TraceStorage* s = ctx_->storage;
  ShellTransitionsTable& t = s->window_manager_shell_transitions;
  std::vector<const TransitionState*> by_row(t.row_count(), nullptr);
  for (const auto& [id, state] : transitions_) by_row[state.row] = &state;
  for (const TransitionState* state : by_row) {
    if (!state) continue;
    if (auto set = ctx_->args.AddArgSet(state->args)) t.arg_set_id.Set(state->row, *set);
  }
  auto valid = [](const IntColumn<int64_t>& c, uint32_t row) {
    return !c.IsNull(row) && c[row] > 0;
  };
  for (uint32_t row = 0; row < t.row_count(); ++row) {
    // A merged transition is never dispatched; one dispatched and finished was played; one
    // aborted before dispatch was aborted (a playing transition cannot be).
    if (valid(t.merge_time_ns, row)) {
      t.status.Set(row, s->Intern("merged"));
      continue;
    }
    const bool dispatched = valid(t.dispatch_time_ns, row);
    if (dispatched && valid(t.finish_time_ns, row)) {
      t.duration_ns.Set(row, t.finish_time_ns[row] - t.dispatch_time_ns[row]);
      t.status.Set(row, s->Intern("played"));
      continue;
    }
    if ((valid(t.shell_abort_time_ns, row) || valid(t.wm_abort_time_ns, row)) && !dispatched) {
      t.status.Set(row, s->Intern("aborted"));
    }
  }
}

uint32_t WinscopeTracker::FlagsId(uint64_t what, bool display) {
  auto& known = display ? display_flags_ : layer_flags_;
  auto it = known.find(what);
  if (it != known.end()) return it->second;
  const uint32_t id = static_cast<uint32_t>(layer_flags_.size() + display_flags_.size());
  known.emplace(what, id);
  SurfaceFlingerTransactionFlagTable& flags = ctx_->storage->surfaceflinger_transaction_flag;
  auto add = [&](const Flag* begin, const Flag* end, uint64_t bits) {
    for (const Flag* f = begin; f != end; ++f) {
      if (!(bits & f->bit)) continue;
      flags.Insert({.flags_id = id, .flag = ctx_->storage->Intern(f->name)});
    }
  };
  if (display) {
    add(std::begin(kDisplayFlags), std::end(kDisplayFlags), what & 0xffffffffu);
  } else {
    add(std::begin(kLayerFlagsLow), std::end(kLayerFlagsLow), what & 0xffffffffu);
    add(std::begin(kLayerFlagsHigh), std::end(kLayerFlagsHigh), (what >> 32) & 0xffffffffu);
  }
  return id;
}

void WinscopeTracker::SurfaceFlingerTransactions(int64_t ts, const WinscopeData& e) {
  TraceStorage* s = ctx_->storage;
  const uint32_t entry =
      s->surfaceflinger_transactions.Insert({.ts = ts,
                                             .arg_set_id = ctx_->args.AddArgSet(e.args),
                                             .base64_proto_id = e.proto,
                                             .vsync_id = e.vsync_id});
  for (const WinscopeData::Change& c : e.changes) {
    s->surfaceflinger_transaction.Insert(
        {.snapshot_id = entry,
         .arg_set_id = c.args ? ctx_->args.AddArgSet(*c.args) : std::nullopt,
         .base64_proto_id =
             c.proto == kNullStringId ? std::nullopt : std::optional<uint32_t>(c.proto),
         .transaction_id = c.transaction_id,
         .pid = c.pid,
         .uid = c.uid,
         .layer_id = c.layer_id,
         .display_id = c.display_id,
         .flags_id = c.what ? std::optional<uint32_t>(FlagsId(*c.what, c.display_what))
                            : std::nullopt,
         .transaction_type = c.type});
  }
}

}  // namespace tw
