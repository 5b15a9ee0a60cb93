// Window manager dumps (WinscopeExtensions.windowmanager) → one row per window container, in
// hierarchy order, with displays' and windows' rects.

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

constexpr uint32_t kWinscopeExtensions = 112;  // TracePacket
constexpr uint32_t kWindowManager = 6;         // WinscopeExtensions extension

proto::Writer Identifier(int32_t hash, const char* title) {
  proto::Writer w;
  w.Int(1, hash);
  w.String(3, title);
  return w;
}

// WindowContainerProto: visible 3, children 5, identifier 6.
proto::Writer Container(int32_t hash, const char* title, bool visible,
                        std::initializer_list<const proto::Writer*> children) {
  proto::Writer w;
  w.Bool(3, visible);
  for (const proto::Writer* c : children) w.Message(5, *c);
  w.Message(6, Identifier(hash, title));
  return w;
}

// WindowContainerChildProto with one kind set.
proto::Writer Child(uint32_t kind, const proto::Writer& body) {
  proto::Writer w;
  w.Message(kind, body);
  return w;
}

proto::Writer Window(int32_t hash, const char* title, bool visible, int32_t l, int32_t t,
                     int32_t r, int32_t b, float alpha) {
  proto::Writer ws;
  ws.Message(1, Container(hash, title, visible, {}));
  proto::Writer attributes;
  uint32_t bits;
  std::memcpy(&bits, &alpha, sizeof(bits));
  attributes.Fixed32(12, bits);
  ws.Message(5, attributes);
  ws.Bool(38, visible);
  proto::Writer frame;
  frame.Int(1, l);
  frame.Int(2, t);
  frame.Int(3, r);
  frame.Int(4, b);
  proto::Writer frames;
  frames.Message(5, frame);
  ws.Message(41, frames);
  return Child(8, ws);
}

// Root → display 3 (720x1280) → display area → task 12 "launcher" → activity → app window;
// the display area also holds a window token with a starting window.
std::string Dump() {
  const proto::Writer app_window = Window(501, "com.example/.Main", true, 0, 0, 720, 1280, 1);
  proto::Writer token_container = Container(0, "", true, {&app_window});
  proto::Writer window_token;
  window_token.Message(1, token_container);
  window_token.Int(2, 400);
  proto::Writer activity;
  activity.String(1, "com.example/.Main");
  activity.Message(2, window_token);
  activity.Bool(24, true);
  const proto::Writer activity_child = Child(6, activity);

  proto::Writer task;
  task.Message(1, Container(300, "Task=12", true, {&activity_child}));
  task.Int(2, 12);
  task.String(32, "launcher");
  const proto::Writer task_child = Child(5, task);

  const proto::Writer starting =
      Window(601, "Starting com.example", false, 100, 200, 300, 400, 0.5f);
  proto::Writer token;
  token.Message(1, Container(0, "", false, {&starting}));
  token.Int(2, 0x2a);
  const proto::Writer token_child = Child(7, token);

  proto::Writer area;
  area.Message(1, Container(200, "DefaultTaskDisplayArea", true, {&task_child, &token_child}));
  area.String(2, "DefaultTaskDisplayArea");
  const proto::Writer area_child = Child(4, area);

  proto::Writer root_area;
  root_area.Message(1, Container(100, "Display", true, {&area_child}));
  proto::Writer info;
  info.Int(1, 720);
  info.Int(2, 1280);
  info.String(5, "Built-in Screen");
  proto::Writer display;
  display.Int(2, 3);
  display.Message(10, info);
  display.Message(21, root_area);
  const proto::Writer display_child = Child(3, display);

  proto::Writer root;
  root.Message(1, Container(1, "ROOT", true, {&display_child}));
  proto::Writer service;
  service.Message(2, root);
  service.Int(9, 3);  // focused display
  proto::Writer entry;
  entry.Fixed64(1, 777);
  entry.Message(3, service);
  return entry.Take();
}

std::unique_ptr<LoadedTrace> Load(const std::string& entry) {
  proto::Writer extensions;
  extensions.Bytes(kWindowManager, entry);
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, 5000);
  packet.Message(kWinscopeExtensions, extensions);
  proto::Writer trace;
  trace.Message(pf::trace::kPacket, packet);
  auto t = LoadTraceBytes(trace.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

TEST(WindowManagerHierarchy, OneRowPerContainerInHierarchyOrder) {
  auto t = Load(Dump());
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "INCLUDE PERFETTO MODULE android.winscope.windowmanager;"
                          "SELECT container_type, title, token, parent_token, child_index, "
                          "is_visible, name_override FROM android_windowmanager_windowcontainer "
                          "ORDER BY id"),
            (Table{{"RootWindowContainer", "ROOT", "1", "NULL", "NULL", "1", "NULL"},
                   {"DisplayContent", "Built-in Screen", "100", "1", "0", "1", "NULL"},
                   {"DisplayArea", "DefaultTaskDisplayArea", "200", "100", "0", "1", "NULL"},
                   {"Task", "Task=12", "300", "200", "0", "1", "12(launcher)"},
                   {"Activity", "com.example/.Main", "400", "300", "0", "1", "NULL"},
                   {"WindowState", "com.example/.Main", "501", "400", "0", "1", "NULL"},
                   {"WindowToken", "0x2a", "42", "200", "1", "0", "NULL"},
                   {"WindowState", "Starting com.example", "601", "42", "0", "0",
                    "com.example"}}));
}

TEST(WindowManagerHierarchy, DisplaysAndWindowsHaveRectsStackedPerDisplay) {
  auto t = Load(Dump());
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "INCLUDE PERFETTO MODULE android.winscope.windowmanager;"
                          "INCLUDE PERFETTO MODULE android.winscope.rect;"
                          "SELECT wc.token, r.x, r.y, r.w, r.h, tr.group_id, tr.depth, "
                          "tr.is_visible, tr.opacity, tf.dsdx, tf.dsdy "
                          "FROM android_windowmanager_windowcontainer wc "
                          "JOIN android_winscope_trace_rect tr ON tr.id = wc.window_rect_id "
                          "JOIN android_winscope_rect r ON r.id = tr.rect_id "
                          "JOIN android_winscope_transform tf ON tf.id = tr.transform_id "
                          "ORDER BY wc.id"),
            (Table{{"100", "0", "0", "720", "1280", "3", "0", "0", "NULL", "1", "1"},
                   {"501", "0", "0", "720", "1280", "3", "1", "1", "1", "1", "1"},
                   {"601", "100", "200", "200", "200", "3", "2", "0", "0.5", "1", "1"}}));
}

TEST(WindowManagerHierarchy, EachRowKeepsItsOwnStateNotItsSubtree) {
  auto t = Load(Dump());
  ASSERT_NE(t, nullptr);
  // The task's args hold its own fields, none of its children's.
  EXPECT_EQ(Scalar(t->db(), "INCLUDE PERFETTO MODULE android.winscope.windowmanager;"
                            "SELECT display_value FROM android_windowmanager_windowcontainer "
                            "JOIN args USING (arg_set_id) WHERE token = 300 AND key = 'task.id'"),
            "12");
  EXPECT_EQ(Scalar(t->db(), "INCLUDE PERFETTO MODULE android.winscope.windowmanager;"
                            "SELECT count(*) FROM android_windowmanager_windowcontainer "
                            "JOIN args USING (arg_set_id) WHERE key GLOB '*children*'"),
            "0");
  EXPECT_EQ(Scalar(t->db(), "INCLUDE PERFETTO MODULE android.winscope.windowmanager;"
                            "SELECT count(*) FROM android_windowmanager JOIN args "
                            "USING (arg_set_id) WHERE key GLOB '*children*'"),
            "0");
  EXPECT_EQ(Scalar(t->db(), "SELECT focused_display_id FROM __intrinsic_windowmanager"), "3");
}

TEST(WindowManagerHierarchy, AContainerWithoutIdentityDropsTheHierarchy) {
  // A root container without an identifier: the dump stays, its hierarchy does not.
  proto::Writer root;
  proto::Writer wc;
  wc.Bool(3, true);
  root.Message(1, wc);
  proto::Writer service;
  service.Message(2, root);
  proto::Writer entry;
  entry.Message(3, service);
  auto t = Load(entry.Take());
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Scalar(t->db(), "SELECT count(*) FROM __intrinsic_windowmanager"), "1");
  EXPECT_EQ(Scalar(t->db(), "SELECT count(*) FROM __intrinsic_windowmanager_windowcontainer"),
            "0");
  EXPECT_EQ(Scalar(t->db(), "SELECT value FROM stats WHERE name = "
                            "'winscope_windowmanager_parse_errors'"),
            "1");
}

}  // namespace
}  // namespace tw
