// ART Java heap dumps (HeapGraph packets) → heap_graph, heap_graph_class, heap_graph_object,
// heap_graph_reference: object and class rows in the order they show, sizes and field names
// from types, reachability from roots, superclasses, native sizes, lost packets, and
// deobfuscation of class and field names; ArtProcessMetadata → the dump's reason, OOME details
// and the failing thread's callstack.

#include <gtest/gtest.h>

#include "libs/trace/trace_loader.h"
#include "libs/trace/trackers/java_package_location.h"
#include "libs/trace/trackers/java_type_name.h"
#include "tests/trace/importers/heap_graph_trace_writer.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using heap_graph_testing::Graph;
using heap_graph_testing::HeapGraphTraceWriter;
using stdlib_testing::Rows;
using stdlib_testing::Scalar;
using stdlib_testing::Table;

// HeapGraphRoot.Type / HeapGraphType.Kind / HeapGraphObject.HeapType values used below.
constexpr uint32_t kRootJniGlobal = 1, kRootJavaFrame = 3, kRootStickyClass = 5;
constexpr uint32_t kKindNormal = 1, kKindWeakReference = 9;
constexpr uint32_t kHeapApp = 1, kHeapZygote = 2;

std::unique_ptr<LoadedTrace> Load(HeapGraphTraceWriter& w) {
  auto t = LoadTraceBytes(w.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

TEST(JavaTypeName, SplitsClassObjectsAndArrays) {
  JavaTypeName t = ParseJavaTypeName("java.lang.Class<com.Foo[][]>");
  EXPECT_EQ(t.base, "com.Foo");
  EXPECT_TRUE(t.is_class_object);
  EXPECT_EQ(t.array_dimensions, 2u);
  EXPECT_EQ(DecorateJavaTypeName(t, "com.Bar"), "java.lang.Class<com.Bar[][]>");
  t = ParseJavaTypeName("a");
  EXPECT_EQ(t.base, "a");
  EXPECT_FALSE(t.is_class_object);
  EXPECT_EQ(t.array_dimensions, 0u);
  EXPECT_EQ(DecorateJavaTypeName(ParseJavaTypeName("b[]"), "Baz"), "Baz[]");
}

TEST(JavaPackageLocation, ReadsAppPathsAndKnownSystemApps) {
  auto package = [](std::string_view loc) {
    PackageFromLocationResult r = PackageFromLocation(loc);
    return r.result == PackageLocationResult::kPackage ? r.package : "<none>";
  };
  EXPECT_EQ(package("/data/app/com.example.app-Xyz12==/base.apk!classes.dex"), "com.example.app");
  EXPECT_EQ(package("/data/app/~~rnd0==/org.sample.two-Q1w2==/base.apk"), "org.sample.two");
  EXPECT_EQ(package("[anon:dalvik-classes2.dex extracted in memory from "
                    "/data/app/net.third-abc/base.apk]"),
            "net.third");
  EXPECT_EQ(package("/product/app/Maps/Maps.apk"), "com.google.android.apps.maps");
  EXPECT_EQ(package("/system/priv-app/PrebuiltGmsCore/PrebuiltGmsCore.apk"),
            "com.google.android.gms");
  EXPECT_EQ(package("base.apk!classes.dex"), "<none>");
  EXPECT_EQ(PackageFromLocation("/data/app/nodash/base.apk").result,
            PackageLocationResult::kParseError);
}

// One dump in two packets: references to objects defined later, explicit field ids named by
// interned field names ("<type> <Class.field>"), types and locations at the end.
TEST(HeapGraph, ObjectsReferencesAndReachability) {
  HeapGraphTraceWriter w;
  w.Process(30, 1, "com.example.app");
  Graph g1{.pid = 30, .index = 0, .continued = true};
  g1.roots = {{kRootJavaFrame, {0x10}}};
  g1.objects = {
      {.id = 0x10, .type_id = 1, .self_size = 48, .field_ids = {1, 2}, .refs = {0x20, 0}},
      {.id = 0x20, .type_id = 2, .self_size = 16},
      {.id = 0x30, .type_id = 2},  // garbage; its size comes from its type
  };
  w.HeapGraph(7, 500, g1);
  Graph g2{.pid = 30, .index = 1, .continued = false, .heap_bytes = 12345};
  g2.location_names = {{1, "/data/app/com.example.app-AbC==/base.apk"}};
  g2.types = {{.id = 1, .name = "com.example.Holder", .location_id = 1, .kind = kKindNormal},
              {.id = 2, .name = "java.lang.String", .object_size = 24}};
  g2.field_names = {{1, "java.lang.String com.example.Holder.label"},
                    {2, "com.example.Holder.next"}};
  w.HeapGraph(7, 500, g2);
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  EXPECT_EQ(Rows(db, "SELECT o.id, o.graph_sample_ts, o.self_size, o.reference_set_id, "
                     "o.reachable, c.name, c.location, o.root_type, c.kind "
                     "FROM heap_graph_object o JOIN heap_graph_class c ON o.type_id = c.id "
                     "ORDER BY o.id"),
            (Table{{"0", "500", "48", "0", "1", "com.example.Holder",
                    "/data/app/com.example.app-AbC==/base.apk", "ROOT_JAVA_FRAME", "KIND_NORMAL"},
                   {"1", "500", "16", "NULL", "1", "java.lang.String", "NULL", "NULL",
                    "KIND_UNKNOWN"},
                   {"2", "500", "24", "NULL", "0", "java.lang.String", "NULL", "NULL",
                    "KIND_UNKNOWN"}}));
  EXPECT_EQ(Rows(db, "SELECT reference_set_id, owner_id, owned_id, field_name, field_type_name "
                     "FROM heap_graph_reference ORDER BY id"),
            (Table{{"0", "0", "1", "com.example.Holder.label", "java.lang.String"},
                   {"0", "0", "NULL", "com.example.Holder.next", "NULL"}}));
  EXPECT_EQ(Rows(db, "SELECT ts, upid = (SELECT upid FROM process WHERE pid = 30), heap_size, "
                     "truncated, dump_reason FROM heap_graph"),
            (Table{{"500", "1", "12345", "0", "NULL"}}));
}

// Since Android S instances carry no field ids: their type lists its own fields, then the
// superclass's (superclass_id), in the order the instance writes its references.
TEST(HeapGraph, FieldNamesComeFromTypesAndSuperclasses) {
  HeapGraphTraceWriter w;
  Graph g{.pid = 40};
  g.objects = {{.id = 1, .type_id = 11, .self_size = 32, .refs = {2, 3, 0}},
               {.id = 2, .type_id = 10, .self_size = 8},
               {.id = 3, .type_id = 10, .self_size = 8}};
  g.types = {{.id = 10, .name = "Base", .field_ids = {100}},
             {.id = 11, .name = "Child", .superclass_id = 10, .field_ids = {101, 102}}};
  g.field_names = {{100, "Base.parentField"}, {101, "Child.a"}, {102, "Child.b"}};
  g.roots = {{kRootJniGlobal, {1}}};
  w.HeapGraph(3, 100, g);
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT owned_id, field_name FROM heap_graph_reference ORDER BY id"),
            (Table{{"1", "Child.a"}, {"2", "Child.b"}, {"NULL", "Base.parentField"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(*) FROM heap_graph_object WHERE reachable"), "3");
}

// Ids as deltas from the previous object, heap types carried forward until they change;
// zygote objects are never collected, so they root what they refer to. A weak reference's
// referent is not kept alive through it.
TEST(HeapGraph, DeltaIdsHeapTypesAndWeakReferences) {
  HeapGraphTraceWriter w;
  Graph g{.pid = 50};
  g.objects = {
      {.id = 100, .type_id = 1, .self_size = 8, .heap_type = kHeapZygote},
      {.delta = 5, .type_id = 2, .self_size = 16, .field_ids = {1}, .refs = {10}, .ref_base = 100},
      {.delta = 5, .type_id = 1, .self_size = 8, .heap_type = kHeapApp},
  };
  g.types = {{.id = 1, .name = "Leaf"}, {.id = 2, .name = "Ref", .kind = kKindWeakReference}};
  g.field_names = {{1, "java.lang.ref.Reference.referent"}};
  w.HeapGraph(9, 200, g);
  auto t = Load(w);
  ASSERT_TRUE(t);
  // Object 105 (zygote, by carry-over) is a VM-internal root; its weak referent 110 is not
  // reached through it.
  EXPECT_EQ(Rows(t->db(), "SELECT id, heap_type, reachable, root_type FROM heap_graph_object "
                          "ORDER BY id"),
            (Table{{"0", "HEAP_TYPE_ZYGOTE", "1", "ROOT_VM_INTERNAL"},
                   {"1", "HEAP_TYPE_ZYGOTE", "1", "ROOT_VM_INTERNAL"},
                   {"2", "HEAP_TYPE_APP", "0", "NULL"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT owned_id FROM heap_graph_reference"), "2");
}

// An object rooted several ways keeps the most telling kind (sticky class, then JNI global).
TEST(HeapGraph, RootKindPrecedence) {
  HeapGraphTraceWriter w;
  Graph g{.pid = 5};
  g.objects = {{.id = 1, .type_id = 1, .self_size = 4}};
  g.types = {{.id = 1, .name = "X"}};
  g.roots = {{kRootJavaFrame, {1}}, {kRootStickyClass, {1}}, {kRootJniGlobal, {1}}};
  w.HeapGraph(1, 10, g);
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Scalar(t->db(), "SELECT root_type FROM heap_graph_object"), "ROOT_STICKY_CLASS");
}

// A gap in a dump's packet indexes marks it truncated; a dump never closed is kept.
TEST(HeapGraph, LostPacketsAndUnfinishedDumps) {
  HeapGraphTraceWriter w;
  Graph g{.pid = 6, .index = 0, .continued = true};
  g.objects = {{.id = 1, .type_id = 1, .self_size = 4}};
  w.HeapGraph(2, 10, g);
  Graph g2{.pid = 6, .index = 2, .continued = true};
  g2.types = {{.id = 1, .name = "X"}};
  w.HeapGraph(2, 10, g2);
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Scalar(t->db(), "SELECT truncated FROM heap_graph"), "1");
  EXPECT_EQ(Rows(t->db(), "SELECT name, value FROM stats WHERE name LIKE 'heap_graph%' "
                          "AND value > 0 ORDER BY name"),
            (Table{{"heap_graph_missing_packet", "1"}, {"heap_graph_non_finalized_graph", "1"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT name FROM heap_graph_class"), "X");
}

// A class's superclass is what its java.lang.Class object's superClass field refers to.
TEST(HeapGraph, SuperclassesFromClassObjects) {
  HeapGraphTraceWriter w;
  Graph g{.pid = 8};
  g.objects = {{.id = 1, .type_id = 1, .self_size = 8, .field_ids = {1}, .refs = {2}},
               {.id = 2, .type_id = 2, .self_size = 8},
               {.id = 3, .type_id = 3, .self_size = 8}};
  g.types = {{.id = 1, .name = "java.lang.Class<Dog>"},
             {.id = 2, .name = "java.lang.Class<Animal>"},
             {.id = 3, .name = "Dog"},
             {.id = 4, .name = "Animal"}};
  g.field_names = {{1, "java.lang.Class java.lang.Class.superClass"}};
  w.HeapGraph(4, 30, g);
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT c.name, s.name FROM heap_graph_class c "
                          "LEFT JOIN heap_graph_class s ON c.superclass_id = s.id ORDER BY c.id"),
            (Table{{"java.lang.Class<Dog>", "NULL"},
                   {"java.lang.Class<Animal>", "NULL"},
                   {"Dog", "Animal"},
                   {"Animal", "NULL"}}));
}

// sun.misc.Cleaner → referent, thunk → NativeAllocationRegistry: the registry's size (without
// its malloced bit) is the referent's native size.
TEST(HeapGraph, NativeSizesThroughCleaners) {
  HeapGraphTraceWriter w;
  Graph g{.pid = 9};
  g.objects = {{.id = 1, .type_id = 1, .self_size = 8, .field_ids = {1, 2}, .refs = {2, 3}},
               {.id = 2, .type_id = 2, .self_size = 100},
               {.id = 3, .type_id = 3, .self_size = 8, .field_ids = {3}, .refs = {4}},
               {.id = 4, .type_id = 4, .self_size = 8, .native_registry_size = 4097}};
  g.types = {{.id = 1, .name = "sun.misc.Cleaner"},
             {.id = 2, .name = "android.graphics.Bitmap"},
             {.id = 3, .name = "libcore.util.NativeAllocationRegistry$CleanerThunk"},
             {.id = 4, .name = "libcore.util.NativeAllocationRegistry"}};
  g.field_names = {{1, "java.lang.ref.Reference.referent"},
                   {2, "sun.misc.Cleaner.thunk"},
                   {3, "libcore.util.NativeAllocationRegistry$CleanerThunk.this$0"}};
  w.HeapGraph(5, 40, g);
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT id, native_size FROM heap_graph_object ORDER BY id"),
            (Table{{"0", "0"}, {"1", "4096"}, {"2", "0"}, {"3", "0"}}));
}

TEST(HeapGraph, BitmapFieldsArePrimitives) {
  HeapGraphTraceWriter w;
  Graph g{.pid = 9};
  g.objects = {{.id = 1, .type_id = 1, .self_size = 8, .bitmap_id = 77, .bitmap_width = 640}};
  g.types = {{.id = 1, .name = "android.graphics.Bitmap"}};
  w.HeapGraph(5, 40, g);
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT p.field_name, p.field_type, p.long_value, p.int_value "
                          "FROM heap_graph_object o "
                          "JOIN heap_graph_object_data d ON o.object_data_id = d.id "
                          "JOIN heap_graph_primitive p USING (field_set_id) ORDER BY 1"),
            (Table{{"android.graphics.Bitmap.mId", "long", "77", "NULL"},
                   {"android.graphics.Bitmap.mWidth", "int", "NULL", "640"}}));
}

// A mapping renames the classes of its package (from the APK path) keeping array and
// java.lang.Class<> decorations, and fields (relative or qualified names); another package's
// classes keep their names.
TEST(HeapGraph, DeobfuscatesClassesAndFieldsOfTheMappingsPackage) {
  HeapGraphTraceWriter w;
  Graph g{.pid = 12};
  g.location_names = {{1, "/data/app/com.shop-1a2b/base.apk"},
                      {2, "/data/app/com.other-9z/base.apk"}};
  g.objects = {{.id = 1, .type_id = 1, .self_size = 8, .field_ids = {1, 2}, .refs = {2, 3}},
               {.id = 2, .type_id = 2, .self_size = 8},
               {.id = 3, .type_id = 3, .self_size = 8}};
  g.types = {{.id = 1, .name = "a", .location_id = 1},
             {.id = 2, .name = "java.lang.Class<a[]>", .location_id = 1},
             {.id = 3, .name = "a", .location_id = 2}};
  g.field_names = {{1, "a.b"}, {2, "int a.c"}};
  w.HeapGraph(6, 50, g);
  w.Deobfuscation("com.shop", {{"a", "com.shop.Cart", {{"b", "items"}, {"c", "Other.total"}}}});
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT name, deobfuscated_name FROM heap_graph_class ORDER BY id"),
            (Table{{"a", "com.shop.Cart"},
                   {"java.lang.Class<a[]>", "java.lang.Class<com.shop.Cart[]>"},
                   {"a", "NULL"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT field_name, deobfuscated_field_name FROM heap_graph_reference "
                          "ORDER BY id"),
            (Table{{"a.b", "com.shop.Cart.items"}, {"a.c", "Other.total"}}));
}

// ArtProcessMetadata names the dumped process and says an OutOfMemoryError triggered the dump:
// the heap graph takes the reason, the details and the failing thread's Java callstack.
TEST(HeapGraph, OutOfMemoryErrorDumps) {
  HeapGraphTraceWriter w;
  w.ArtProcessMetadata(70, 321, "com.leaky", 10123, "com.leaky", /*oome=*/true,
                       {{"void com.leaky.Cache.grow(int)", "Cache.java", 88},
                        {"com.leaky.Main.run", "Main.java", 12}});
  Graph g{.pid = 321, .heap_bytes = 9000};
  g.objects = {{.id = 1, .type_id = 1, .self_size = 8}};
  g.types = {{.id = 1, .name = "X"}};
  w.HeapGraph(2, 70, g);
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  Rows(db, "INCLUDE PERFETTO MODULE android.memory.heap_graph.oome");
  EXPECT_EQ(Rows(db, "SELECT g.ts, p.name, p.uid, g.dump_reason, g.heap_size, "
                     "o.allocation_size_bytes, o.total_bytes_free, o.free_bytes_until_oom, "
                     "o.error_msg FROM heap_graph g JOIN process p USING (upid) "
                     "JOIN android_heap_graph_java_oome_details o ON o.heap_graph_id = g.id"),
            (Table{{"70", "com.leaky", "10123", "OOME", "9000", "4096", "1000", "300",
                    "Failed to allocate 4096 bytes"}}));
  EXPECT_EQ(Rows(db, "SELECT package_name, uid FROM package_list"),
            (Table{{"com.leaky", "10123"}}));
  // Outermost frame at depth 0; the leaf callsite is the innermost frame.
  EXPECT_EQ(Rows(db, "SELECT c.depth, f.name, s.source_file, s.line_number, m.name "
                     "FROM heap_graph_thread_callsite t "
                     "JOIN stack_profile_callsite c ON c.id = t.callsite_id "
                     "JOIN stack_profile_frame f ON f.id = c.frame_id "
                     "JOIN stack_profile_mapping m ON m.id = f.mapping "
                     "JOIN stack_profile_symbol s ON s.symbol_set_id = f.symbol_set_id"),
            (Table{{"1", "com.leaky.Cache.grow", "Cache.java", "88", "art_process_metadata"}}));
  EXPECT_EQ(Scalar(db, "SELECT f.name FROM stack_profile_callsite c "
                       "JOIN stack_profile_frame f ON f.id = c.frame_id WHERE c.depth = 0"),
            "com.leaky.Main.run");
}

}  // namespace
}  // namespace tw
