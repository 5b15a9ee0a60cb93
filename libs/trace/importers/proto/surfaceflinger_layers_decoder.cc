// WinscopeDecoder::DecodeSurfaceFlingerLayers: a SurfaceFlinger layers snapshot, with the
// visibility, drawing order and rects winscope computes for it.
#include <string>

#include "absl/container/flat_hash_set.h"

#include "libs/trace/importers/proto/base64.h"
#include "libs/trace/importers/proto/surfaceflinger_layer_facts.h"
#include "libs/trace/importers/proto/surfaceflinger_layer_order.h"
#include "libs/trace/importers/proto/surfaceflinger_layer_rects.h"
#include "libs/trace/importers/proto/surfaceflinger_layer_visibility.h"
#include "libs/trace/importers/proto/winscope_decoder.h"

namespace tw {
namespace {

constexpr std::string_view kStat = "winscope_sf_layers_parse_errors";
constexpr uint32_t kSnapshotLayers = 3, kLayersLayer = 1;  // LayersSnapshotProto, LayersProto

}  // namespace

void WinscopeDecoder::DecodeSurfaceFlingerLayers(const PacketContext& packet,
                                                 const proto::Field& field) {
  const std::string_view bytes = field.as_string();
  winscope::SnapshotFacts facts;
  if (!winscope::DecodeSnapshotFacts(bytes, &facts)) ctx_->storage->IncrementStat(kStat);

  WinscopeData data;
  data.kind = WinscopeData::Kind::kSurfaceFlingerLayers;
  data.proto = Base64(bytes);
  data.has_invalid_elapsed_ts = facts.elapsed_realtime_nanos == 0;
  // The snapshot's own fields; its layers get rows (and args) of their own.
  const std::vector<uint32_t> kSnapshotFields = {1, 2, 4, 5, 6, 7, 8};
  data.args = Args("LayersSnapshotProto", bytes, kStat, &kSnapshotFields);

  auto snapshot = std::make_unique<WinscopeData::SfSnapshot>();
  snapshot->sequence_id = packet.sequence_id;
  const std::vector<WinscopeData::TraceRect> display_rects = winscope::DisplayRects(facts);
  for (size_t i = 0; i < facts.displays.size(); ++i) {
    const winscope::DisplayFacts& d = facts.displays[i];
    WinscopeData::SfDisplay row;
    row.is_on = d.layer_stack != winscope::kInvalidLayerStack;
    row.is_virtual = d.is_virtual;
    row.display_id = static_cast<int64_t>(d.id);
    if (d.name) row.name = ctx_->Intern(*d.name);
    row.rect = display_rects[i];
    snapshot->displays.push_back(std::move(row));
  }

  const std::vector<size_t> order = winscope::LayersTopToBottom(facts.layers);
  const std::vector<winscope::LayerVisibility> visibility =
      winscope::ComputeLayerVisibility(facts, order);
  winscope::LayerRects rects = winscope::ComputeLayerRects(facts, order, visibility);
  snapshot->layer_rects = std::move(rects.rects);

  absl::flat_hash_set<int32_t> ids;
  for (const winscope::LayerFacts& l : facts.layers) {
    if (l.id) ids.insert(*l.id);
  }

  // The layers' raw messages, in the order their facts were decoded.
  std::vector<std::string_view> layer_bytes;
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id != kSnapshotLayers || f.type != proto::kLengthDelimited) continue;
    proto::Decoder ld(f);
    proto::Field layer;
    while (ld.Next(&layer)) {
      if (layer.id == kLayersLayer && layer.type == proto::kLengthDelimited) {
        layer_bytes.push_back(layer.as_string());
      }
    }
  }

  const size_t n = std::min(layer_bytes.size(), facts.layers.size());
  for (size_t i = 0; i < n; ++i) {
    const winscope::LayerFacts& l = facts.layers[i];
    const winscope::LayerVisibility& v = visibility[i];
    WinscopeData::SfLayer row;
    row.proto = Base64(layer_bytes[i]);
    row.args = Args("LayerProto", layer_bytes[i], kStat);
    if (l.id) row.layer_id = *l.id;
    if (l.name) row.name = ctx_->Intern(*l.name);
    if (l.parent) row.parent = *l.parent;
    if (l.hwc_composition_type) row.hwc_composition_type = *l.hwc_composition_type;
    if (l.z_order_relative_of) {
      row.z_order_relative_of = *l.z_order_relative_of;
      row.is_missing_z_parent = *l.z_order_relative_of > 0 && !ids.contains(*l.z_order_relative_of);
    }
    const winscope::CornerRadii radii = l.Radii();
    row.corner_radius_tl = radii.tl;
    row.corner_radius_tr = radii.tr;
    row.corner_radius_bl = radii.bl;
    row.corner_radius_br = radii.br;
    row.is_hidden_by_policy = l.IsHiddenByPolicy();
    row.is_visible = v.is_visible;
    row.layer_rect = rects.bounds_rect[i];
    row.input_rect = rects.input_rect[i];

    // What the visibility computation found, as args beside the layer's fields.
    auto add_list = [&](std::string_view name, size_t count, auto value_of) {
      const StringId flat = ctx_->Intern(name);
      for (size_t k = 0; k < count; ++k) {
        const std::string key = std::string(name) + "[" + std::to_string(k) + "]";
        row.args.push_back(Arg{flat, ctx_->Intern(key), value_of(k)});
      }
    };
    add_list("visibility_reason", v.reasons.size(),
             [&](size_t k) { return ArgValue::String(ctx_->Intern(v.reasons[k])); });
    add_list("occluded_by", v.occluded_by.size(),
             [&](size_t k) { return ArgValue::Int(v.occluded_by[k]); });
    add_list("partially_occluded_by", v.partially_occluded_by.size(),
             [&](size_t k) { return ArgValue::Int(v.partially_occluded_by[k]); });
    add_list("covered_by", v.covered_by.size(),
             [&](size_t k) { return ArgValue::Int(v.covered_by[k]); });
    snapshot->layers.push_back(std::move(row));
  }
  data.sf_snapshot = std::move(snapshot);
  Push(packet, std::move(data));
}

}  // namespace tw
