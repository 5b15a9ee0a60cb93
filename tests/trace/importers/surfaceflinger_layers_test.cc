// SurfaceFlinger layer snapshots (TracePacket.surfaceflinger_layers_snapshot) → the snapshot,
// display and layer tables, with the drawing order, visibility and rects winscope computes.

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Scalar;
using stdlib_testing::Table;

constexpr uint32_t kLayersSnapshot = 93;  // TracePacket extension
constexpr uint32_t kLayerFlagHidden = 0x01;
constexpr uint32_t kNotTouchable = 1u << 3;

void Float(proto::Writer* w, uint32_t field, float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  w->Fixed32(field, bits);
}

proto::Writer FloatRect(float l, float t, float r, float b) {
  proto::Writer w;
  Float(&w, 1, l);
  Float(&w, 2, t);
  Float(&w, 3, r);
  Float(&w, 4, b);
  return w;
}

proto::Writer IntRect(int32_t l, int32_t t, int32_t r, int32_t b) {
  proto::Writer w;
  w.Int(1, l);
  w.Int(2, t);
  w.Int(3, r);
  w.Int(4, b);
  return w;
}

struct Layer {
  int32_t id = 0;
  const char* name = "";
  int32_t parent = -1;
  int32_t z = 0;
  uint32_t flags = 0;
  bool opaque = false;
  bool buffer = true;
  float alpha = 1, rgb = 0;
  float l = 0, t = 0, r = 0, b = 0;  // bounds and screen bounds
  bool input = false;
  uint32_t input_config = 0;
};

// LayerProto fields: id 1, name 2, z 10, layer_stack 9, is_opaque 16, color 20, flags 22,
// parent 25, active_buffer 27, bounds 45, screen_bounds 46, input_window_info 47.
proto::Writer LayerProto(const Layer& x) {
  proto::Writer w;
  w.Int(1, x.id);
  w.String(2, x.name);
  w.Varint(9, 0);
  w.Int(10, x.z);
  w.Bool(16, x.opaque);
  proto::Writer color;
  Float(&color, 1, x.rgb);
  Float(&color, 2, x.rgb);
  Float(&color, 3, x.rgb);
  Float(&color, 4, x.alpha);
  w.Message(20, color);
  w.Varint(22, x.flags);
  if (x.parent != -1) w.Int(25, x.parent);
  if (x.buffer) {
    proto::Writer buffer;
    buffer.Varint(1, 1080);
    buffer.Varint(2, 1920);
    buffer.Varint(3, 1080);
    buffer.Int(4, 1);
    w.Message(27, buffer);
  }
  w.Message(45, FloatRect(x.l, x.t, x.r, x.b));
  w.Message(46, FloatRect(x.l, x.t, x.r, x.b));
  if (x.input) {
    proto::Writer in;
    in.Message(3, IntRect(static_cast<int32_t>(x.l), static_cast<int32_t>(x.t),
                          static_cast<int32_t>(x.r), static_cast<int32_t>(x.b)));
    in.Varint(17, x.input_config);
    w.Message(47, in);
  }
  return w;
}

// A phone: one 1080x1920 display; under the root, a wallpaper, an opaque full-screen app with
// a hidden dialog (and its child) drawn below it, and a translucent status bar on top.
std::unique_ptr<LoadedTrace> PhoneTrace() {
  const Layer layers[] = {
      // SurfaceFlinger's root spans 10x the display: "infinite" bounds, never drawn.
      {.id = 10, .name = "root", .buffer = false, .alpha = 1, .rgb = -1, .l = -10800,
       .t = -19200, .r = 10800, .b = 19200},
      {.id = 12, .name = "wallpaper", .parent = 10, .z = 0, .opaque = true, .r = 1080,
       .b = 1920},
      {.id = 11, .name = "app", .parent = 10, .z = 1, .opaque = true, .r = 1080, .b = 1920,
       .input = true},
      {.id = 14, .name = "dialog", .parent = 11, .z = -1, .flags = kLayerFlagHidden, .l = 100,
       .t = 100, .r = 200, .b = 200},
      {.id = 15, .name = "dialog content", .parent = 14, .l = 100, .t = 100, .r = 150,
       .b = 150},
      {.id = 13, .name = "status bar", .parent = 10, .z = 2, .r = 1080, .b = 100,
       .input = true, .input_config = kNotTouchable},
  };
  proto::Writer list;
  for (const Layer& l : layers) list.Message(1, LayerProto(l));
  proto::Writer display;
  display.Varint(1, 7);
  display.String(2, "Built-in");
  display.Varint(3, 0);
  proto::Writer size;
  size.Int(1, 1080);
  size.Int(2, 1920);
  display.Message(4, size);
  display.Message(5, IntRect(0, 0, 1080, 1920));
  proto::Writer snapshot;
  snapshot.Fixed64(1, 5000);  // elapsed_realtime_nanos
  snapshot.String(2, "visibleRegionsDirty");
  snapshot.Message(3, list);
  snapshot.Message(7, display);
  snapshot.Int(8, 4242);  // vsync_id
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, 1000);
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 3);
  packet.Message(kLayersSnapshot, snapshot);
  proto::Writer trace;
  trace.Message(pf::trace::kPacket, packet);
  auto t = LoadTraceBytes(trace.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

TEST(SurfaceFlingerLayers, SnapshotKeepsItsOwnFieldsAsArgs) {
  auto t = PhoneTrace();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT id, ts, sequence_id, has_invalid_elapsed_ts FROM "
                          "surfaceflinger_layers_snapshot"),
            (Table{{"0", "1000", "3", "0"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT display_value FROM surfaceflinger_layers_snapshot s JOIN "
                            "args USING (arg_set_id) WHERE key = 'vsync_id'"),
            "4242");
  // The layers are rows of their own, not args of the snapshot.
  EXPECT_EQ(Scalar(t->db(), "SELECT count(*) FROM surfaceflinger_layers_snapshot s JOIN args "
                            "USING (arg_set_id) WHERE key GLOB 'layers*'"),
            "0");
}

TEST(SurfaceFlingerLayers, VisibilityFollowsDrawingOrderOcclusionAndParents) {
  auto t = PhoneTrace();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT layer_id, layer_name, parent, is_visible, is_hidden_by_policy "
                          "FROM surfaceflinger_layer ORDER BY id"),
            (Table{{"10", "root", "NULL", "0", "0"},
                   {"12", "wallpaper", "10", "0", "0"},
                   {"11", "app", "10", "1", "0"},
                   {"14", "dialog", "11", "0", "1"},
                   {"15", "dialog content", "14", "0", "0"},
                   {"13", "status bar", "10", "1", "0"}}));
  auto args_of = [&](int layer, const char* glob) {
    return Rows(t->db(), "SELECT key, display_value FROM surfaceflinger_layer l JOIN args a "
                         "USING (arg_set_id) WHERE l.layer_id = " +
                             std::to_string(layer) + " AND key GLOB '" + glob +
                             "' ORDER BY key");
  };
  EXPECT_EQ(args_of(12, "*occluded_by*"), (Table{{"occluded_by[0]", "11"}}));
  EXPECT_EQ(args_of(12, "visibility_reason*"), (Table{{"visibility_reason[0]", "occluded"}}));
  EXPECT_EQ(args_of(11, "covered_by*"), (Table{{"covered_by[0]", "13"}}));
  EXPECT_EQ(args_of(14, "visibility_reason*"), (Table{{"visibility_reason[0]", "flag is hidden"}}));
  EXPECT_EQ(args_of(15, "visibility_reason*"),
            (Table{{"visibility_reason[0]", "hidden by parent 14"}}));
  EXPECT_EQ(args_of(10, "visibility_reason*"),
            (Table{{"visibility_reason[0]", "buffer is empty"},
                   {"visibility_reason[1]", "does not have color fill, shadow or blur"}}));
  // A visible layer has no reasons.
  EXPECT_EQ(args_of(11, "visibility_reason*"), Table{});
}

TEST(SurfaceFlingerLayers, RectsAreStackedBottomToTopPerLayerStack) {
  auto t = PhoneTrace();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "INCLUDE PERFETTO MODULE android.winscope.surfaceflinger;"
                          "INCLUDE PERFETTO MODULE android.winscope.rect;"
                          "SELECT d.display_id, d.display_name, d.is_on, r.w, r.h, tr.depth "
                          "FROM android_surfaceflinger_display d "
                          "JOIN android_winscope_trace_rect tr ON tr.id = d.trace_rect_id "
                          "JOIN android_winscope_rect r ON r.id = tr.rect_id"),
            (Table{{"7", "Built-in", "1", "1080", "1920", "0"}}));
  // Bottom to top: wallpaper, dialog (drawn under its parent: negative z), its child, app,
  // status bar; the root's infinite bounds get no rect.
  EXPECT_EQ(Rows(t->db(), "INCLUDE PERFETTO MODULE android.winscope.rect;"
                          "SELECT l.layer_id, tr.depth, tr.is_visible, tr.opacity, r.w, r.h "
                          "FROM surfaceflinger_layer l "
                          "LEFT JOIN android_winscope_trace_rect tr ON tr.id = l.layer_rect_id "
                          "LEFT JOIN android_winscope_rect r ON r.id = tr.rect_id ORDER BY l.id"),
            (Table{{"10", "NULL", "NULL", "NULL", "NULL", "NULL"},
                   {"12", "1", "0", "1", "1080", "1920"},
                   {"11", "4", "1", "1", "1080", "1920"},
                   {"14", "2", "0", "1", "100", "100"},
                   {"15", "3", "0", "1", "50", "50"},
                   {"13", "5", "1", "1", "1080", "100"}}));
  // Input windows have their own depths; one that takes no touches is filled with nothing.
  EXPECT_EQ(Rows(t->db(), "INCLUDE PERFETTO MODULE android.winscope.surfaceflinger;"
                          "INCLUDE PERFETTO MODULE android.winscope.rect;"
                          "SELECT l.layer_id, tr.depth, tr.is_visible, r.w, r.h, fr.w, fr.h "
                          "FROM surfaceflinger_layer l "
                          "JOIN android_winscope_trace_rect tr ON tr.id = l.input_rect_id "
                          "JOIN android_winscope_rect r ON r.id = tr.rect_id "
                          "LEFT JOIN android_winscope_fill_region f ON f.trace_rect_id = tr.id "
                          "LEFT JOIN android_winscope_rect fr ON fr.id = f.rect_id ORDER BY tr.depth"),
            (Table{{"11", "1", "1", "1080", "1920", "NULL", "NULL"},
                   {"13", "2", "1", "1080", "100", "0", "0"}}));
  // Every layer rect carries its layer's transform (identity here).
  EXPECT_EQ(Rows(t->db(), "INCLUDE PERFETTO MODULE android.winscope.rect;"
                          "SELECT DISTINCT t.dsdx, t.dtdx, t.tx, t.dtdy, t.dsdy, t.ty "
                          "FROM surfaceflinger_layer l "
                          "JOIN android_winscope_trace_rect tr ON tr.id = l.layer_rect_id "
                          "JOIN android_winscope_transform t ON t.id = tr.transform_id"),
            (Table{{"1", "0", "0", "0", "1", "0"}}));
}

}  // namespace
}  // namespace tw
