// Debug annotations and other event args: keys, value types, nesting, interning.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/track_event/test_packets.h"

namespace tw::testing {
namespace {

using ::testing::ElementsAre;
namespace da = pf::debug_annotation;
namespace nv = pf::debug_annotation_nested_value;

proto::Writer Annotation(std::string_view name) {
  proto::Writer a;
  a.String(da::kName, name);
  return a;
}

std::string TraceWithAnnotations(const std::vector<proto::Writer>& annotations,
                                 const proto::Writer* interned = nullptr) {
  proto::Writer e = Event(kInstant, "e", 1);
  for (const proto::Writer& a : annotations) e.Message(te::kDebugAnnotations, a);
  Packet p(1, 10);
  if (interned) p.Field(tp::kInternedData, *interned);
  p.Event(e);
  return Trace({Packet(1, 0).ClearedState().Descriptor(NamedTrack(1, "t")), p});
}

const char* kArgsQuery =
    "SELECT a.flat_key, a.key, a.int_value, a.string_value, a.real_value, a.value_type "
    "FROM slice s JOIN args a USING (arg_set_id) ORDER BY a.id";

TEST(TrackEventArgs, ScalarAnnotationsKeepTheirTypes) {
  std::vector<proto::Writer> a;
  a.push_back(Annotation("b"));
  a.back().Bool(da::kBoolValue, true);
  a.push_back(Annotation("u"));
  a.back().Varint(da::kUintValue, 42);
  a.push_back(Annotation("i"));
  a.back().Int(da::kIntValue, -7);
  a.push_back(Annotation("d"));
  a.back().Double(da::kDoubleValue, 1.5);
  a.push_back(Annotation("s"));
  a.back().String(da::kStringValue, "text");
  a.push_back(Annotation("p"));
  a.back().Varint(da::kPointerValue, 0x1000);
  a.push_back(Annotation("j"));
  a.back().String(da::kLegacyJsonValue, "1.25");  // a JSON scalar: one arg of its JSON type
  EXPECT_THAT(Rows(TraceWithAnnotations(a), kArgsQuery),
              ElementsAre(R"("debug.b","debug.b",1,"[NULL]","[NULL]","bool")",
                          R"("debug.u","debug.u",42,"[NULL]","[NULL]","uint")",
                          R"("debug.i","debug.i",-7,"[NULL]","[NULL]","int")",
                          R"("debug.d","debug.d","[NULL]","[NULL]",1.500000,"real")",
                          R"("debug.s","debug.s","[NULL]","text","[NULL]","string")",
                          R"("debug.p","debug.p",4096,"[NULL]","[NULL]","pointer")",
                          R"("debug.j","debug.j","[NULL]","[NULL]",1.250000,"real")"));
}

TEST(TrackEventArgs, DictsAndArraysFlattenIntoKeys) {
  // {"outer": {"list": [1, [], 2], "x.y": "v"}}: empty entries take no index; '.' is sanitised.
  proto::Writer one, empty, two, list, xy, outer;
  one.Int(da::kIntValue, 1);
  two.Int(da::kIntValue, 2);
  list = Annotation("list");
  list.Message(da::kArrayValues, one);
  list.Message(da::kArrayValues, empty);
  list.Message(da::kArrayValues, two);
  xy = Annotation("x.y");
  xy.String(da::kStringValue, "v");
  outer = Annotation("outer");
  outer.Message(da::kDictEntries, list);
  outer.Message(da::kDictEntries, xy);
  EXPECT_THAT(Rows(TraceWithAnnotations({outer}), "SELECT flat_key, key FROM slice s "
                                                  "JOIN args a USING (arg_set_id) ORDER BY a.id"),
              ElementsAre(R"("debug.outer.list","debug.outer.list[0]")",
                          R"("debug.outer.list","debug.outer.list[1]")",
                          R"("debug.outer.x_y","debug.outer.x_y")"));
}

TEST(TrackEventArgs, NestedValuesFlattenLikeDicts) {
  proto::Writer a_val, b_val, arr, dict;
  a_val.Int(nv::kIntValue, 3);
  b_val.String(nv::kStringValue, "s");
  arr.Varint(nv::kNestedType, pf::nested_value_type::kArray);
  arr.Message(nv::kArrayValues, a_val);
  arr.Message(nv::kArrayValues, b_val);
  dict.Varint(nv::kNestedType, pf::nested_value_type::kDict);
  dict.String(nv::kDictKeys, "arr");
  dict.Message(nv::kDictValues, arr);
  proto::Writer annotation = Annotation("n");
  annotation.Message(da::kNestedValue, dict);
  EXPECT_THAT(Rows(TraceWithAnnotations({annotation}),
                   "SELECT key, int_value, string_value FROM slice s "
                   "JOIN args a USING (arg_set_id) ORDER BY a.id"),
              ElementsAre(R"("debug.n.arr[0]",3,"[NULL]")", R"("debug.n.arr[1]","[NULL]","s")"));
}

// A legacy JSON value is not kept as text: its members and elements become args, as nested
// annotations do, and its arrays continue the event's other arrays of the same key.
TEST(TrackEventArgs, LegacyJsonValuesAreExpanded) {
  proto::Writer json = Annotation("j");
  json.String(da::kLegacyJsonValue,
              R"({"a": 1, "b": {"c": "x", "d": null}, "e": [true, null, 2.5], "f": {}})");
  proto::Writer list = Annotation("list");
  proto::Writer one;
  one.Int(da::kIntValue, 1);
  list.Message(da::kArrayValues, one);
  proto::Writer list_json = Annotation("list");  // the same key again: its elements follow
  list_json.String(da::kLegacyJsonValue, "[7, 8]");
  proto::Writer damaged = Annotation("bad");
  damaged.String(da::kLegacyJsonValue, "{\"ok\": 1, \"broken");
  const std::string trace = TraceWithAnnotations({json, list, list_json, damaged});
  EXPECT_THAT(Rows(trace, "SELECT flat_key, key, display_value, value_type FROM slice s "
                          "JOIN args a USING (arg_set_id) ORDER BY a.id"),
              ElementsAre(R"("debug.j.a","debug.j.a","1","int")",
                          R"("debug.j.b.c","debug.j.b.c","x","string")",
                          R"("debug.j.e","debug.j.e[0]","true","bool")",
                          R"("debug.j.e","debug.j.e[1]","2.5","real")",
                          R"("debug.list","debug.list[0]","1","int")",
                          R"("debug.list","debug.list[1]","7","int")",
                          R"("debug.list","debug.list[2]","8","int")",
                          R"("debug.bad.ok","debug.bad.ok","1","int")"));
  // Damaged JSON keeps what was read and is not counted as a parser error.
  EXPECT_THAT(Rows(trace, "SELECT count(*) FROM stats WHERE name = 'track_event_parser_errors' "
                          "AND value > 0"),
              ElementsAre("0"));
}

// An end event's annotation arrays append to its begin's (one args inserter serves the
// slice), nested ones included; scalars and dict members still replace or join.
TEST(TrackEventArgs, EndEventArraysContinueTheBeginsArrays) {
  auto int_value = [](int64_t v) {
    proto::Writer w;
    w.Int(da::kIntValue, v);
    return w;
  };
  proto::Writer begin = Event(kBegin, "s", 1);
  proto::Writer list = Annotation("list");
  list.Message(da::kArrayValues, int_value(1));
  list.Message(da::kArrayValues, int_value(2));
  begin.Message(te::kDebugAnnotations, list);
  proto::Writer json = Annotation("j");
  json.String(da::kLegacyJsonValue, R"({"arr": [[10]], "x": 1})");
  begin.Message(te::kDebugAnnotations, json);

  proto::Writer end = Event(kEnd, "", 1, "");
  proto::Writer end_list = Annotation("list");
  end_list.Message(da::kArrayValues, int_value(3));
  end.Message(te::kDebugAnnotations, end_list);
  proto::Writer end_json = Annotation("j");
  end_json.String(da::kLegacyJsonValue, R"({"arr": [[20, 21]], "x": 2, "y": 3})");
  end.Message(te::kDebugAnnotations, end_json);
  const std::string trace = Trace({
      Packet(1, 0).Descriptor(NamedTrack(1, "t")),
      Packet(1, 10).Event(begin),
      Packet(1, 20).Event(end),
  });
  EXPECT_THAT(Rows(trace, "SELECT key, int_value FROM slice JOIN args USING (arg_set_id) "
                          "ORDER BY args.id"),
              ElementsAre(R"("debug.list[0]",1)", R"("debug.list[1]",2)",
                          R"("debug.j.arr[0][0]",10)", R"("debug.j.x",2)",
                          R"("debug.list[2]",3)", R"("debug.j.arr[1][0]",20)",
                          R"("debug.j.arr[1][1]",21)", R"("debug.j.y",3)"));
}

TEST(TrackEventArgs, InternedNamesAndStringValues) {
  proto::Writer name, value, interned;
  name.Varint(pf::debug_annotation_name::kIid, 1);
  name.String(pf::debug_annotation_name::kName, "key");
  value.Varint(pf::interned_string::kIid, 2);
  value.String(pf::interned_string::kStr, "interned value");
  interned.Message(pf::interned_data::kDebugAnnotationNames, name);
  interned.Message(pf::interned_data::kDebugAnnotationStringValues, value);
  proto::Writer a;
  a.Varint(da::kNameIid, 1);
  a.Varint(da::kStringValueIid, 2);
  EXPECT_THAT(Rows(TraceWithAnnotations({a}, &interned),
                   "SELECT extract_arg(arg_set_id, 'debug.key') FROM slice"),
              ElementsAre(R"("interned value")"));
}

TEST(TrackEventArgs, UnknownInternedNameIsAnErrorButOtherArgsStay) {
  proto::Writer bad, good;
  bad.Varint(da::kNameIid, 99);
  bad.Int(da::kIntValue, 1);
  good = Annotation("ok");
  good.Int(da::kIntValue, 2);
  const std::string trace = TraceWithAnnotations({bad, good});
  EXPECT_THAT(Rows(trace, "SELECT key FROM slice JOIN args USING (arg_set_id)"),
              ElementsAre(R"("debug.ok")"));
  EXPECT_THAT(Rows(trace, "SELECT value FROM stats WHERE name = 'track_event_parser_errors'"),
              ElementsAre("1"));
}

// A proto value is typed by the descriptors (the embedded schema's and the trace's own): its
// fields become args under the annotation's key, whether the type is named inline or interned.
TEST(TrackEventArgs, ProtoValueAnnotationsAreReflectedUnderTheirKey) {
  proto::Writer scope;
  scope.Varint(1, 3);  // BlinkTaskScope.type = TASK_SCOPE_SCRIPT_EXECUTION
  scope.Int(2, 17);    // scope_task_id
  proto::Writer inline_named = Annotation("scope");
  inline_named.String(da::kProtoTypeName, ".perfetto.protos.BlinkTaskScope");
  inline_named.Bytes(da::kProtoValue, scope.data());
  proto::Writer type_name, interned;
  type_name.Varint(pf::debug_annotation_value_type_name::kIid, 5);
  type_name.String(pf::debug_annotation_value_type_name::kName,
                   ".perfetto.protos.BlinkTaskScope");
  interned.Message(pf::interned_data::kDebugAnnotationValueTypeNames, type_name);
  proto::Writer interned_named = Annotation("list");
  proto::Writer element;
  element.Varint(da::kProtoTypeNameIid, 5);
  element.Bytes(da::kProtoValue, scope.data());
  interned_named.Message(da::kArrayValues, element);
  proto::Writer empty = Annotation("empty");
  empty.String(da::kProtoTypeName, ".perfetto.protos.BlinkTaskScope");
  empty.Bytes(da::kProtoValue, "");
  EXPECT_THAT(Rows(TraceWithAnnotations({inline_named, interned_named, empty}, &interned),
                   "SELECT flat_key, key, display_value FROM slice s "
                   "JOIN args a USING (arg_set_id) ORDER BY a.id"),
              ElementsAre(R"("debug.scope.type","debug.scope.type","TASK_SCOPE_SCRIPT_EXECUTION")",
                          R"("debug.scope.scope_task_id","debug.scope.scope_task_id","17")",
                          R"("debug.list.type","debug.list[0].type","TASK_SCOPE_SCRIPT_EXECUTION")",
                          R"("debug.list.scope_task_id","debug.list[0].scope_task_id","17")",
                          R"("debug.empty","debug.empty","[NULL]")"));
}

// Inside typed payloads: a DebugAnnotation field is an annotation named by itself under the
// payload (not "<field>[i].name"), and a location iid is resolved to its interned location.
TEST(TrackEventArgs, TypedPayloadAnnotationsAndInternedLocations) {
  constexpr uint32_t kMemoryPressure = 1001, kBrowsingContextState = 1035;
  proto::Writer pointer = Annotation("this");
  pointer.Varint(da::kPointerValue, 0xabc);
  proto::Writer state;
  state.Int(1, 4);  // browsing_instance_id
  state.Message(99, pointer);  // debug_annotations
  proto::Writer pressure;
  pressure.Varint(2, 7);  // creation_location_iid
  proto::Writer unknown_location;
  unknown_location.Varint(2, 8);  // an iid the sequence does not hold: stays a number
  proto::Writer location, interned;
  location.Varint(pf::source_location::kIid, 7);
  location.String(pf::source_location::kFileName, "dir\\file.cc");
  location.String(pf::source_location::kFunctionName, "Fn");
  location.Varint(pf::source_location::kLineNumber, 12);
  interned.Message(pf::interned_data::kSourceLocations, location);
  proto::Writer e1 = Event(kInstant, "a", 1);
  e1.Message(kBrowsingContextState, state);
  e1.Message(kMemoryPressure, pressure);
  proto::Writer e2 = Event(kInstant, "b", 1);
  e2.Message(kMemoryPressure, unknown_location);
  Packet p1(1, 10), p2(1, 20);
  p1.Field(tp::kInternedData, interned).Event(e1);
  p2.Event(e2);
  const std::string trace =
      Trace({Packet(1, 0).ClearedState().Descriptor(NamedTrack(1, "t")), p1, p2});
  EXPECT_THAT(Rows(trace, "SELECT s.name, a.key, a.display_value FROM slice s "
                          "JOIN args a USING (arg_set_id) ORDER BY s.ts, a.id"),
              ElementsAre(R"("a","browsing_context_state.browsing_instance_id","4")",
                          R"("a","browsing_context_state.this","0xabc")",
                          R"("a","chrome_memory_pressure_notification.file_name","dir/file.cc")",
                          R"("a","chrome_memory_pressure_notification.function_name","Fn")",
                          R"("a","chrome_memory_pressure_notification.line_number","12")",
                          R"("b","chrome_memory_pressure_notification.creation_location_iid","8")"));
}

TEST(TrackEventArgs, ProtoValueOfAnUnknownTypeIsAnError) {
  proto::Writer unknown = Annotation("u");
  unknown.String(da::kProtoTypeName, ".perfetto.protos.NoSuchMessage");
  unknown.Bytes(da::kProtoValue, "\x08\x01");
  proto::Writer good = Annotation("ok");
  good.Int(da::kIntValue, 2);
  const std::string trace = TraceWithAnnotations({unknown, good});
  EXPECT_THAT(Rows(trace, "SELECT key FROM slice JOIN args USING (arg_set_id)"),
              ElementsAre(R"("debug.ok")"));
  EXPECT_THAT(Rows(trace, "SELECT value FROM stats WHERE name = 'track_event_parser_errors'"),
              ElementsAre("1"));
}

TEST(TrackEventArgs, ChromeHistogramSamplesWithInternedNames) {
  // ChromeHistogramSample: name_hash 1, name 2, sample 3, name_iid 4; InternedData
  // histogram_names (25) holds HistogramName {iid 1, name 2}.
  proto::Writer histogram_name, interned;
  histogram_name.Varint(1, 1);
  histogram_name.String(2, "Memory.Total");
  interned.Message(pf::interned_data::kHistogramNames, histogram_name);
  auto event = [](int64_t ts_unused, std::optional<std::string_view> name,
                  std::optional<uint64_t> iid) {
    proto::Writer sample;
    sample.Varint(1, 777);
    if (name) sample.String(2, *name);
    sample.Int(3, 42);
    if (iid) sample.Varint(4, *iid);
    proto::Writer e = Event(kInstant, "h", 1);
    e.Message(te::kChromeHistogramSample, sample);
    (void)ts_unused;
    return e;
  };
  Packet p1(1, 10), p2(1, 20), p3(1, 30);
  p1.Field(tp::kInternedData, interned).Event(event(10, std::nullopt, 1));
  p2.Event(event(20, "Literal.Name", 1));  // both a name and an iid: an error
  p3.Event(event(30, std::nullopt, 9));    // an iid never interned: an error
  const std::string trace =
      Trace({Packet(1, 0).ClearedState().Descriptor(NamedTrack(1, "t")), p1, p2, p3});
  EXPECT_THAT(Rows(trace, "SELECT s.ts, a.key, a.display_value FROM slice s JOIN args a "
                          "USING (arg_set_id) WHERE a.key GLOB 'chrome_histogram_sample.*' "
                          "ORDER BY s.ts, a.id"),
              ElementsAre(R"(10,"chrome_histogram_sample.name_hash","777")",
                          R"(10,"chrome_histogram_sample.sample","42")",
                          R"(10,"chrome_histogram_sample.name_iid","1")",
                          R"(10,"chrome_histogram_sample.name","Memory.Total")",
                          R"(20,"chrome_histogram_sample.name_hash","777")",
                          R"(20,"chrome_histogram_sample.name","Literal.Name")",
                          R"(20,"chrome_histogram_sample.sample","42")",
                          R"(20,"chrome_histogram_sample.name_iid","1")",
                          R"(30,"chrome_histogram_sample.name_hash","777")",
                          R"(30,"chrome_histogram_sample.sample","42")",
                          R"(30,"chrome_histogram_sample.name_iid","9")"));
  EXPECT_THAT(Rows(trace, "SELECT name, value FROM stats WHERE name IN "
                          "('track_event_parser_errors', 'interned_data_tokenizer_errors') "
                          "ORDER BY name"),
              ElementsAre(R"("interned_data_tokenizer_errors",1)",
                          R"("track_event_parser_errors",2)"));
}

TEST(TrackEventArgs, EndEventArgsMergeIntoTheSlice) {
  proto::Writer begin = Event(kBegin, "s", 1);
  proto::Writer a1 = Annotation("x");
  a1.Int(da::kIntValue, 1);
  begin.Message(te::kDebugAnnotations, a1);
  proto::Writer end = Event(kEnd, "", 1, "");
  proto::Writer a2 = Annotation("x");
  a2.Int(da::kIntValue, 2);  // replaces the begin's value, in place
  proto::Writer a3 = Annotation("y");
  a3.Int(da::kIntValue, 3);
  end.Message(te::kDebugAnnotations, a2);
  end.Message(te::kDebugAnnotations, a3);
  const std::string trace = Trace({
      Packet(1, 0).Descriptor(NamedTrack(1, "t")),
      Packet(1, 10).Event(begin),
      Packet(1, 20).Event(end),
  });
  EXPECT_THAT(Rows(trace, "SELECT key, int_value FROM slice JOIN args USING (arg_set_id) "
                          "ORDER BY args.id"),
              ElementsAre(R"("debug.x",2)", R"("debug.y",3)"));
}

// Typed Chrome payloads of a TrackEvent and Chrome's extension fields become args by
// reflection over their .proto, named by field path (an extension by its own name); an
// interned histogram name joins the sample's args.
TEST(TrackEventArgs, TypedPayloadsAreReflectedIntoArgs) {
  constexpr uint32_t kChromeHistogramSample = 28, kChromeLatencyInfo = 29;
  constexpr uint32_t kHistogramNames = 25;  // InternedData
  proto::Writer name;
  name.Varint(1, 5);  // iid
  name.String(2, "Memory.Total");
  proto::Writer interned;
  interned.Message(kHistogramNames, name);
  proto::Writer sample;
  sample.Varint(1, 1234);  // name_hash
  sample.Int(3, 77);       // sample
  sample.Varint(4, 5);     // name_iid
  proto::Writer component;
  component.Varint(1, 2);  // component_type (an enum)
  component.Varint(2, 99);  // time_us
  proto::Writer latency;
  latency.Varint(1, 42);  // trace_id
  latency.Message(4, component);
  constexpr uint32_t kPageLoad = 1056;  // a ChromeTrackEvent extension of TrackEvent
  proto::Writer page_load;
  page_load.Int(1, 6);  // navigation_id
  page_load.String(2, "https://example.com/");
  proto::Writer e = Event(kInstant, "e", 1);
  e.Message(kChromeHistogramSample, sample);
  e.Message(kChromeLatencyInfo, latency);
  e.Message(kPageLoad, page_load);
  Packet p(1, 10);
  p.Field(tp::kInternedData, interned);
  p.Event(e);
  const std::string trace =
      Trace({Packet(1, 0).ClearedState().Descriptor(NamedTrack(1, "t")), p});
  EXPECT_THAT(
      Rows(trace, "SELECT a.key, a.display_value FROM slice s JOIN args a USING (arg_set_id) "
                  "ORDER BY a.key"),
      ElementsAre(R"("chrome_histogram_sample.name","Memory.Total")",
                  R"("chrome_histogram_sample.name_hash","1234")",
                  R"("chrome_histogram_sample.name_iid","5")",
                  R"("chrome_histogram_sample.sample","77")",
                  R"("chrome_latency_info.component_info[0].component_type","COMPONENT_INPUT_EVENT_LATENCY_SCROLL_UPDATE_ORIGINAL")",
                  R"("chrome_latency_info.component_info[0].time_us","99")",
                  R"("chrome_latency_info.trace_id","42")",
                  R"("page_load.navigation_id","6")",
                  R"("page_load.url","https://example.com/")"));
}

}  // namespace
}  // namespace tw::testing
